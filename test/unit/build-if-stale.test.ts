import { mkdirSync, mkdtempSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { BUILD_OUTPUT, buildIsStale } from '../../scripts/build-if-stale.js'

/** A checkout with one source and, unless `built` is undefined, a build; times in seconds since the epoch. */
function checkout(source: number, built: number | undefined, sourcePath = 'src/http/cors.ts'): string {
  const root = mkdtempSync(join(tmpdir(), 'novu-mock-stale-'))
  const files: Array<[string, number]> = [[sourcePath, source], ...(built === undefined ? [] : [[BUILD_OUTPUT, built] as [string, number]])]
  for (const [path, time] of files) {
    mkdirSync(dirname(join(root, path)), { recursive: true })
    writeFileSync(join(root, path), '')
    utimesSync(join(root, path), time, time)
  }
  // Folders as old as can be: here only the files' times count (a folder's changes when a file is added or removed).
  for (const [path] of files) {
    for (let folder = dirname(path); folder !== '.'; folder = dirname(folder)) utimesSync(join(root, folder), 1, 1)
  }
  return root
}

/** `npm start` rebuilds only when it must: a fresh build starts the CLI at once. */
describe('npm start: is the build stale?', () => {
  it('is not when the build is newer than every source', () => {
    expect(buildIsStale(checkout(1_000, 2_000))).toBe(false)
  })

  it.each(['src/http/cors.ts', 'spec/openapi.yaml', 'fixtures/subscribers.json', 'package-lock.json'])('is when %s changed after the build', (path) => {
    expect(buildIsStale(checkout(3_000, 2_000, path))).toBe(true)
  })

  it('is when there is no build yet', () => {
    expect(buildIsStale(checkout(1_000, undefined))).toBe(true)
  })
})
