// novu-mock/msw from the packed tarball (issue 44): installed beside msw and @novu/api in a fresh
// folder, a strict nodenext user file typechecks and drives the official SDK through msw.
import { copyFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { packAndInstall, REPO, run, type PackedInstall } from '../helpers/packed-install.ts'

// npm pack and npm install take seconds, more on a busy 2-core machine: generous, well over what they need.
const SLOW = 120_000

let install: PackedInstall

beforeAll(async () => {
  install = await packAndInstall(['typescript', '@types/node', 'msw', '@novu/api'])
  for (const file of ['example.ts', 'tsconfig.json']) copyFileSync(join(REPO, 'test', 'packaging', 'consumer-msw', file), join(install.installed, file))
}, SLOW)

afterAll(() => install?.remove())

describe("import from 'novu-mock/msw', beside msw 2 and @novu/api", () => {
  it('ships the entry and its declarations', () => {
    expect(install.tarball.files).toEqual(expect.arrayContaining(['dist/bundle/msw.js', 'dist/src/msw/index.d.ts', 'dist/src/msw/create-novu-mock.d.ts']))
  })

  it('typechecks a strict nodenext file, then drives the SDK at its default server URL through msw', async () => {
    const tsc = await run(join(install.installed, 'node_modules', '.bin', 'tsc'), ['-p', '.'], { cwd: install.installed })
    expect(tsc).toMatchObject({ code: 0, stdout: '' })
    const ran = await run('node', [join('out', 'example.js')], { cwd: install.installed })
    expect(ran).toMatchObject({ code: 0, stderr: '' })
    expect(JSON.parse(ran.stdout)).toEqual({ firstName: 'Ada', read: true })
  }, SLOW)
})
