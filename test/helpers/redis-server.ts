import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { connect } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { freePort } from './free-port.ts'

/** Debian's redis-server, which the --redis tests start; `.ci/run` installs it when missing. */
export const REDIS_SERVER = '/usr/bin/redis-server'

/**
 * Why the --redis tests are left out of this run, or undefined when they run: they run wherever
 * redis-server is installed, and always under CI, where a missing one must fail them.
 */
export function redisTestsSkipped(env: NodeJS.ProcessEnv = process.env, installed = existsSync(REDIS_SERVER)): string | undefined {
  if (installed || (env.CI !== undefined && env.CI !== '' && env.CI !== 'false')) return undefined
  return `--redis tests skipped: no redis-server at ${REDIS_SERVER} (apt-get install -y redis-server; with CI set they run, and fail without it)`
}

export interface RedisServer {
  readonly url: string
  stop(): Promise<void>
}

/** A redis-server of its own on a free port of 127.0.0.1, keeping nothing on disk; stopped by `stop`. */
export async function startRedis(): Promise<RedisServer> {
  const dir = mkdtempSync(join(tmpdir(), 'novu-mock-redis-'))
  const port = await freePort()
  const child = spawn(REDIS_SERVER, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir], { stdio: 'ignore' })
  await listening(port, child)
  return {
    url: `redis://127.0.0.1:${port}`,
    async stop() {
      if (child.exitCode === null) {
        child.kill('SIGKILL')
        await new Promise((resolve) => child.once('exit', resolve))
      }
      rmSync(dir, { recursive: true, force: true })
    },
  }
}

/** Resolves once the port takes connections; rejects if the server ends first. */
async function listening(port: number, child: ChildProcess): Promise<void> {
  for (;;) {
    if (child.exitCode !== null) throw new Error(`redis-server exited with ${child.exitCode}`)
    const socket = connect(port, '127.0.0.1')
    const open = await new Promise<boolean>((resolve) => {
      socket.once('connect', () => resolve(true)).once('error', () => resolve(false))
    }).finally(() => socket.destroy())
    if (open) return
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}
