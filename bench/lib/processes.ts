/**
 * Servers under benchmark as child processes: pinned to core 0 (and this process, the load
 * generator, to core 1) where taskset exists, started on a free port, probed until ready.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process'
import { closeSync, mkdirSync, openSync, readdirSync, readFileSync } from 'node:fs'
import { request } from 'node:http'
import { createServer } from 'node:net'
import { cpus } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

export const ROOT = fileURLToPath(new URL('../..', import.meta.url))
export const HEADERS = { Authorization: 'ApiKey bench', 'Content-Type': 'application/json', Accept: 'application/json' }

const hasTaskset = (() => {
  try {
    execFileSync('sh', ['-c', 'command -v taskset'], { stdio: 'ignore' })
    return true
  } catch {
    return false
  }
})()
export const PINNED = hasTaskset && cpus().length >= 2
const EVERY_CORE = `0-${cpus().length - 1}`
/** This process's threads on `cores` (taskset's list). */
const pinSelf = (cores: string) => execFileSync('taskset', ['-a', '-p', '-c', cores, String(process.pid)], { stdio: 'ignore' })
if (PINNED) pinSelf('1') // the load generator

/**
 * Runs `spawning` with this process on every core for its while: a child inherits its parent's
 * cores, and a Redis started from here would otherwise share the load generator's one.
 */
export async function onEveryCore<T>(spawning: () => Promise<T>): Promise<T> {
  if (!PINNED) return spawning()
  pinSelf(EVERY_CORE)
  try {
    return await spawning()
  } finally {
    pinSelf('1')
  }
}

/** A server's log file under bench/results/logs/, as a user redirects the log: `2> file`. */
export function logFileOf(name: string): string {
  const dir = join(ROOT, 'bench/results/logs')
  mkdirSync(dir, { recursive: true })
  return join(dir, `${name.replace(/\W+/g, '-')}.log`)
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })
}

/** Status and body of one request, or undefined when nothing answers. */
export function probe(port: number, method: string, path: string, body?: unknown, headers: Record<string, string> = HEADERS): Promise<{ status: number; body: Buffer } | undefined> {
  return new Promise((resolve) => {
    const payload = body === undefined ? undefined : JSON.stringify(body)
    const req = request({ host: '127.0.0.1', port, method, path, headers: { ...headers, ...(payload ? { 'Content-Length': Buffer.byteLength(payload) } : {}) }, agent: false }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (chunk: Buffer) => chunks.push(chunk))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks) }))
      res.on('error', () => resolve(undefined))
    })
    req.on('error', () => resolve(undefined))
    req.setTimeout(2000, () => req.destroy())
    req.end(payload)
  })
}

/** One request of a tenant with no time limit: a whole state of 200,000 connections is tens of MB. */
export function call(port: number, method: string, path: string, tenant: string, body?: string | Uint8Array): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const headers = { Authorization: `ApiKey ${tenant}`, 'Content-Type': 'application/json', ...(body ? { 'Content-Length': Buffer.byteLength(body) } : {}) }
    const req = request({ host: '127.0.0.1', port, method, path, headers, agent: false }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (chunk: Buffer) => chunks.push(chunk))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString() }))
    })
    req.on('error', reject)
    req.end(body)
  })
}

/** A GET whose answer is counted, not kept: a whole state of a 100,000-row tenant is hundreds of MB. */
export function drainedGet(port: number, path: string, tenant: string): Promise<{ status: number; bytes: number }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers: { Authorization: `ApiKey ${tenant}` }, agent: false }, (res) => {
      let bytes = 0
      res.on('data', (chunk: Buffer) => (bytes += chunk.length))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, bytes }))
    })
    req.on('error', reject)
    req.end()
  })
}

export interface Running {
  child: ChildProcess
  port: number
  startupMs: number
  stderr: string[]
}

export interface ServerDef {
  name: string
  /** Command and arguments for a port. */
  command(port: number): string[]
  /** A request that answers once the server is ready, and whether its status means ready. */
  ready: { path: string; ok: (status: number) => boolean }
}

/**
 * novu-mock as built (npm run build), with default flags: log level info and strict response
 * validation. Its request log goes to stderr: started with `logFile`, to a file.
 */
export const NOVU_MOCK: ServerDef = {
  name: 'novu-mock',
  command: (port) => [process.execPath, join(ROOT, 'bin/novu-mock.js'), '--port', String(port), '--host', '127.0.0.1'],
  ready: { path: '/__admin/health', ok: (status) => status === 200 },
}

/**
 * novu-mock as built, as the --redis and load-balancer benches run it: warnings only, responses not
 * validated. `root`: another build's folder (an older version's, for a side-by-side).
 */
export const novuMock = (name: string, args: string[], root = ROOT): ServerDef => ({
  name,
  command: (port) => [process.execPath, join(root, 'bin/novu-mock.js'), '--port', String(port), '--log-level', 'warn', '--response-validation', 'off', ...args],
  ready: { path: '/__admin/health', ok: (status) => status === 200 },
})

/**
 * `pinned`: on core 0 when taskset exists (the default); unpinned, as a user's machine runs it.
 * `onStdout`: handed what the server writes to stdout, which is dropped otherwise.
 * `logFile`: where its stderr (the request log) goes; else a pipe of which the last lines are kept.
 */
export async function start(def: ServerDef, { pinned = PINNED, onStdout, logFile }: { pinned?: boolean; onStdout?: (text: string) => void; logFile?: string } = {}): Promise<Running> {
  const port = await freePort()
  const [cmd, ...args] = def.command(port)
  // Unpinned, on every core: spawned plainly it would inherit this process's one.
  const full = pinned ? ['taskset', '-c', '0', cmd!, ...args] : PINNED ? ['taskset', '-c', EVERY_CORE, cmd!, ...args] : [cmd!, ...args]
  // A file, as a user redirects the log: a pipe would have this process, on the load generator's core, read every line.
  const log = logFile === undefined ? 'pipe' : openSync(logFile, 'w')
  const started = performance.now()
  const child = spawn(full[0]!, full.slice(1), { cwd: ROOT, stdio: ['ignore', onStdout ? 'pipe' : 'ignore', log] })
  if (typeof log === 'number') closeSync(log)
  const stderr: string[] = []
  child.stdout?.on('data', (chunk: Buffer) => onStdout?.(chunk.toString()))
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr.push(chunk.toString())
    if (stderr.length > 50) stderr.shift()
  })
  let exited = false
  child.once('exit', () => (exited = true))
  const deadline = started + 90_000
  while (performance.now() < deadline && !exited) {
    const answer = await probe(port, 'GET', def.ready.path)
    if (answer && def.ready.ok(answer.status)) return { child, port, startupMs: performance.now() - started, stderr }
    await sleep(answer ? 20 : 5)
  }
  child.kill('SIGKILL')
  throw new Error(`${def.name} did not start on port ${port}${exited ? ' (exited)' : ''}: ${stderr.join('').slice(-2000)}`)
}

export async function stop(running: Running): Promise<void> {
  const { child } = running
  if (child.exitCode !== null || child.signalCode !== null) return
  const exited = new Promise((resolve) => child.once('exit', resolve))
  child.kill('SIGTERM')
  const timer = setTimeout(() => child.kill('SIGKILL'), 5000)
  await exited
  clearTimeout(timer)
}

/** Resident memory of a process now (VmRSS) or at its peak (VmHWM), in MB. */
export function rssMb(pid: number | undefined, field: 'VmRSS' | 'VmHWM' = 'VmRSS'): number | undefined {
  try {
    const match = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
    return match ? Math.round(Number(match[1]) / 1024) : undefined
  } catch {
    return undefined
  }
}

/** CPU time a process has used (utime + stime, all its threads), in ms: clock ticks of 10 ms. NaN without /proc. */
export function cpuMs(pid: number | undefined): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')
    return (Number(fields[11]) + Number(fields[12])) * 10
  } catch {
    return NaN
  }
}

/** CPU time every process of the machine has used (all cores: user, nice, system, irq, softirq, steal), in ms. NaN without /proc. */
export function machineCpuMs(): number {
  try {
    const [, user, nice, system, , , irq, softirq, steal] = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).map(Number)
    return (user! + nice! + system! + irq! + softirq! + steal!) * 10
  } catch {
    return NaN
  }
}

/** CPU time of a process and all its descendants, in ms. */
export function treeCpuMs(root: number): number {
  const parents = new Map<number, number>()
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      parents.set(Number(entry), Number(readFileSync(`/proc/${entry}/stat`, 'utf8').split(') ')[1]!.split(' ')[1]))
    } catch {
      // Gone meanwhile.
    }
  }
  const inTree = (pid: number): boolean => pid === root || (pid > 1 && parents.has(pid) && inTree(parents.get(pid)!))
  return [...parents.keys()].filter(inTree).reduce((sum, pid) => sum + (cpuMs(pid) || 0), 0)
}
