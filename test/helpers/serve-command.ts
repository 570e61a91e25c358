import { spawn } from 'node:child_process'

/** A command serving in the background. */
export interface Serving {
  /** The URL its banner names, once it listens; rejects with its output if it ends first. */
  url: Promise<string>
  /** Its stderr so far (the request log). */
  stderr: () => string
  /** Ends it and every process it started, and resolves once they have let go of its output. */
  stop: () => Promise<void>
}

/**
 * Starts `command` in a process group of its own: `npx` runs the bin in a child process that a
 * signal to npx alone would leave running, so stop() signals the whole group.
 */
export function serveCommand(command: string, args: string[], options: { cwd: string; env: NodeJS.ProcessEnv }): Serving {
  const child = spawn(command, args, { ...options, detached: true, stdio: ['ignore', 'pipe', 'pipe'] })
  let stderr = ''
  child.stderr.on('data', (chunk: Buffer) => void (stderr += String(chunk)))
  child.once('error', (error) => void (stderr += `${error.message}\n`))
  const closed = new Promise<void>((resolve) => child.once('close', () => resolve()))
  const url = (async () => {
    let banner = ''
    for await (const chunk of child.stdout) {
      banner += String(chunk)
      const found = /listening on (http:\/\/\S+)/.exec(banner)?.[1]
      if (found) return found
    }
    throw new Error(`${[command, ...args].join(' ')} did not start:\n${banner}${stderr}`)
  })()
  const stop = async () => {
    if (child.pid !== undefined && child.exitCode === null && child.signalCode === null) {
      try {
        process.kill(-child.pid, 'SIGTERM')
      } catch {
        // The group is already gone.
      }
    }
    await closed
  }
  return { url, stderr: () => stderr, stop }
}
