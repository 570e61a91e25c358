import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { cleanEnv, runCli, startCli } from '../helpers/cli.ts'

const REPO = join(import.meta.dirname, '..', '..')
const dir = mkdtempSync(join(tmpdir(), 'novu-mock-pid-'))
/** Every server a test started, stopped at the end whatever happened (by its own id). */
const started: number[] = []
afterAll(() => {
  for (const pid of started) if (isAlive(pid)) process.kill(pid, 'SIGKILL')
  rmSync(dir, { recursive: true, force: true })
})

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

/** Whether a URL still answers: a server left behind does. */
const answers = (url: string) => fetch(`${url}/__admin/health`).then(() => true, () => false)

/** The id a server wrote to its --pid-file, once it did. */
async function pidIn(file: string): Promise<number> {
  await expect.poll(() => existsSync(file), { timeout: 75_000, interval: 100 }).toBe(true)
  const pid = Number(readFileSync(file, 'utf8'))
  started.push(pid)
  return pid
}

describe('--pid-file: a server started in the background, stopped cleanly', () => {
  it('holds the id of the listening server itself, and is removed when that server stops', async () => {
    const file = join(dir, 'direct.pid')
    const cli = await startCli(['--port', '0', '--log-level', 'silent', '--pid-file', file])
    const pid = await pidIn(file)
    expect(pid).toBe(cli.child.pid)
    expect(readFileSync(file, 'utf8')).toBe(`${pid}\n`)
    process.kill(pid, 'SIGTERM')
    await expect.poll(() => isAlive(pid), { timeout: 10_000 }).toBe(false)
    expect(existsSync(file)).toBe(false)
    expect(await answers(cli.url)).toBe(false)
  })

  it('is a one-line error when it cannot be written, and nothing keeps listening', async () => {
    const { code, stderr } = await runCli(['--port', '0', '--pid-file', join(dir, 'no-such-dir', 'x.pid')])
    expect(code).toBe(1)
    expect(stderr).toMatch(/^novu-mock: cannot write --pid-file .*x\.pid \(ENOENT\)\n$/)
  })
})

describe('npm start, killed by its own id', () => {
  it('takes the server down with it: nothing is left listening', async () => {
    const file = join(dir, 'npm.pid')
    const npm: ChildProcess = spawn('npm', ['start', '--silent', '--', '--port', '0', '--log-level', 'silent', '--pid-file', file], {
      cwd: REPO,
      env: cleanEnv(),
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let banner = ''
    npm.stdout!.on('data', (chunk: Buffer) => void (banner += String(chunk)))
    const pid = await pidIn(file)
    await expect.poll(() => /listening on (http:\/\/\S+)/.exec(banner)?.[1], { timeout: 10_000 }).toBeDefined()
    const url = /listening on (http:\/\/\S+)/.exec(banner)![1]!
    expect(await answers(url)).toBe(true)
    npm.kill('SIGTERM')
    await expect.poll(() => isAlive(pid), { timeout: 10_000 }).toBe(false)
    expect(await answers(url)).toBe(false)
    expect(existsSync(file)).toBe(false)
  }, 90_000) // npm's own start, and a build first when the sources are newer than it
})
