import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { freePort, portOpen } from './free-port.ts'

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
  /** Ends the server (SIGTERM: with `durable`, everything written is on disk) and keeps its port and folder for `restart`. */
  halt(): Promise<void>
  /** Starts it again on the same port, from what it kept. */
  restart(): Promise<void>
  /** Sends the server a signal (SIGSTOP, SIGCONT…). */
  signal(signal: NodeJS.Signals): void
  stop(): Promise<void>
}

export interface RedisOptions {
  /** Writes every command to its append-only file before answering (appendfsync always), so a restart loses nothing. */
  durable?: boolean
  /** The URL of a server this one is a replica of. */
  replicaOf?: string
  /** More of redis-server's options (`--rename-command COPY ''`: a server without COPY, as before Redis 6.2). */
  args?: readonly string[]
}

/** A redis-server of its own on a free port of 127.0.0.1, keeping nothing on disk unless `durable`; stopped by `stop`. */
export async function startRedis({ durable = false, replicaOf, args: more = [] }: RedisOptions = {}): Promise<RedisServer> {
  const dir = mkdtempSync(join(tmpdir(), 'novu-mock-redis-'))
  const port = await freePort()
  const persistence = durable ? ['--appendonly', 'yes', '--appendfsync', 'always'] : ['--appendonly', 'no']
  const replica = replicaOf === undefined ? [] : ['--replicaof', ...new URL(replicaOf).host.split(':')]
  // A replica's first copy at once, not after Redis's default 5 s.
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--repl-diskless-sync-delay', '0', ...persistence, ...replica, ...more, '--dir', dir]
  const launch = async () => {
    const started = spawn(REDIS_SERVER, args, { stdio: 'ignore' })
    await portOpen(port, () => started.exitCode !== null)
    return started
  }
  const end = async (signal: NodeJS.Signals) => {
    if (child.exitCode !== null || child.signalCode !== null) return
    const exited = new Promise((resolve) => child.once('exit', resolve))
    child.kill(signal)
    await exited
  }
  let child = await launch()
  return {
    url: `redis://127.0.0.1:${port}`,
    halt: () => end('SIGTERM'),
    signal: (signal) => void child.kill(signal),
    async restart() {
      child = await launch()
    },
    async stop() {
      await end('SIGKILL')
      rmSync(dir, { recursive: true, force: true })
    },
  }
}
