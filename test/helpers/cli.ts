import { execFile, execFileSync, spawn, type ChildProcess } from 'node:child_process'
import { fileURLToPath } from 'node:url'

/** The CLI's entry point, absolute, so a test may run it from any directory. */
export const BIN = fileURLToPath(new URL('../../bin/novu-mock.js', import.meta.url))

export interface CliRun {
  code: number
  stdout: string
  stderr: string
}

export interface CliOptions {
  /** Added to a copy of this process's environment with every NOVU_MOCK_*, PORT and HOST removed. */
  env?: Record<string, string>
  cwd?: string
}

/** Whether script(1) is here, to run the CLI on a real terminal. */
export const hasScript = (() => {
  try {
    execFileSync('script', ['--version'], { stdio: 'ignore' })
    return true
  } catch {
    return false
  }
})()

/** The environment a CLI test runs in: nothing of the caller's own novu-mock settings. */
export function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('NOVU_MOCK_') && name !== 'PORT' && name !== 'HOST'))
  return { ...env, ...extra }
}

/** Runs the CLI to its end, with stdout and stderr pipes (not a terminal). */
export function runCli(args: string[], options: CliOptions = {}): Promise<CliRun> {
  return new Promise((resolve) => {
    execFile('node', [BIN, ...args], { env: cleanEnv(options.env), cwd: options.cwd, maxBuffer: 256 * 1024 * 1024 }, (error, stdout, stderr) => {
      resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr })
    })
  })
}

/** The CLI serving, with its URL read from the banner and its stderr so far; stop() ends it. */
export async function startCli(args: string[], options: CliOptions = {}): Promise<{ child: ChildProcess; url: string; stderr: () => string; stop: () => Promise<void> }> {
  const child = spawn('node', [BIN, ...args], { env: cleanEnv(options.env), cwd: options.cwd, stdio: ['ignore', 'pipe', 'pipe'] })
  let stderr = ''
  child.stderr!.on('data', (chunk: Buffer) => void (stderr += String(chunk)))
  let banner = ''
  for await (const chunk of child.stdout!) {
    banner += String(chunk)
    const url = /listening on (http:\/\/\S+)/.exec(banner)?.[1]
    if (url) {
      const stop = async () => {
        if (child.exitCode !== null) return
        child.kill('SIGTERM')
        await new Promise((resolve) => child.once('exit', resolve))
      }
      return { child, url, stderr: () => stderr, stop }
    }
  }
  throw new Error(`novu-mock did not start: ${banner}${stderr}`)
}

export type Instance = Awaited<ReturnType<typeof startCli>>

/** Instances of the CLI on a Redis, silent on free ports, as a suite starts them; `stopAll` ends those still running. */
export function redisInstances() {
  const started: Instance[] = []
  return {
    async start(url: string, ...flags: string[]): Promise<Instance> {
      const served = await startCli(['--port', '0', '--log-level', 'silent', '--redis', url, ...flags])
      started.push(served)
      return served
    },
    async stopAll(): Promise<void> {
      const running = started.filter(({ child }) => child.exitCode === null && child.signalCode === null)
      await Promise.all(running.map((served) => served.stop()))
    },
  }
}
