import { execFile } from 'node:child_process'
import { once } from 'node:events'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'

/** Runs the CLI to its end; resolves with its exit code and stderr. */
async function cli(args: string[]): Promise<{ code: number; stderr: string }> {
  return promisify(execFile)('node', ['bin/novu-mock.js', '--log-level', 'silent', ...args]).then(
    ({ stderr }) => ({ code: 0, stderr }),
    (error: { code: number; stderr: string }) => ({ code: error.code, stderr: error.stderr }),
  )
}

describe('the CLI’s own faults: one line naming the problem, and a non-zero exit', () => {
  it('a port in use', async () => {
    const blocker = createServer().listen(0, '127.0.0.1')
    await once(blocker, 'listening')
    const { port } = blocker.address() as AddressInfo
    const { code, stderr } = await cli(['--port', String(port)])
    blocker.close()
    expect(code).toBe(1)
    expect(stderr.trim().split('\n')).toHaveLength(1)
    expect(stderr).toContain('the port is already in use')
  })

  it.each([
    ['an unreadable --db file', () => ['--db', mkdtempSync(join(tmpdir(), 'novu-mock-dir-'))], /cannot read \(EISDIR/],
    ['a --db file that is not a store', () => { const file = join(mkdtempSync(join(tmpdir(), 'novu-mock-db-')), 'x.json'); writeFileSync(file, '{"version":7}'); return ['--db', file] }, /not a novu-mock store/],
    ['an unknown flag', () => ['--nope'], /Unknown option '--nope'/],
    ['a bad value', () => ['--seed', 'abc'], /--seed must be a whole number/],
  ])('%s', async (_case, args, message) => {
    const { code, stderr } = await cli(args())
    expect(code).toBeGreaterThan(0)
    expect(stderr).toMatch(message)
    expect(stderr).not.toMatch(/\n\s+at /) // no stack trace
  })
})
