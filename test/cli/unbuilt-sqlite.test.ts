import { execFile } from 'node:child_process'
import { cpSync, mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { cleanEnv } from '../helpers/cli.ts'

const REPO = join(import.meta.dirname, '..', '..')
/** What the package ships that a start reads (package.json `files`, as npm pack lays it out). */
const SHIPPED = ['bin', 'dist/bundle', 'dist/contract', 'dist/seeds', 'spec', 'fixtures', 'src/admin/ui', 'src/web/page', 'package.json']

/**
 * The package as `npm install --ignore-scripts` leaves it: every dependency there, better-sqlite3
 * with its JavaScript but without its native build (its install script is what builds it).
 */
function installWithoutScripts(root: string): string {
  const app = join(root, 'novu-mock')
  for (const path of SHIPPED) cpSync(join(REPO, path), join(app, path), { recursive: true })
  const modules = realpathSync(join(REPO, 'node_modules'))
  mkdirSync(join(app, 'node_modules'))
  for (const name of readdirSync(modules)) if (name !== 'better-sqlite3') symlinkSync(join(modules, name), join(app, 'node_modules', name))
  for (const part of ['lib', 'package.json']) cpSync(join(modules, 'better-sqlite3', part), join(app, 'node_modules', 'better-sqlite3', part), { recursive: true })
  return app
}

const root = mkdtempSync(join(tmpdir(), 'novu-mock-unbuilt-'))
afterAll(() => rmSync(root, { recursive: true, force: true }))

describe('--db where better-sqlite3 was installed with --ignore-scripts', () => {
  it('stops with one line saying how to build it, not a list of paths', async () => {
    const app = installWithoutScripts(root)
    const run = await new Promise<{ code: number; stderr: string }>((resolve) => {
      execFile('node', [join(app, 'bin', 'novu-mock.js'), '--port', '0', '--db', join(root, 'state.db')], { env: cleanEnv() }, (error, _stdout, stderr) =>
        resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stderr }),
      )
    })
    expect(run.code).toBe(1)
    expect(run.stderr).toBe(
      'novu-mock: --db needs the optional package better-sqlite3, which is installed without its native build (an install with --ignore-scripts skips it): run npm rebuild better-sqlite3\n',
    )
  })
})
