/**
 * wrk (Debian's `wrk` package) driven from a bench: one thread, pinned to core 1 as the other
 * benches pin their load generator, requests prepared in a Lua script so that a call costs wrk a
 * table lookup. Its figure is the one an outside user reproduces by running wrk by hand.
 */
import { execFileSync, spawn } from 'node:child_process'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Operation } from './operations.ts'
import { HEADERS, PINNED } from './processes.ts'

/** wrk's path, or undefined when it is not installed. */
export function findWrk(): string | undefined {
  try {
    return execFileSync('sh', ['-c', 'command -v wrk'], { encoding: 'utf8' }).trim() || undefined
  } catch {
    return undefined
  }
}

/** Distinct calls in a script: a write's body and path rotate through them, so every call really writes. */
const CALLS = 1000
const SCRIPTS = mkdtempSync(join(tmpdir(), 'novu-mock-wrk-'))
const longString = (text: string) => `[==[${text}]==]`

/**
 * A Lua script that sends `op`'s calls in turn, each prepared once by wrk.format in init(), with
 * the bench's headers (`extra` added). Answers the script's path.
 */
export function wrkScript(op: Operation, extra: Record<string, string> = {}): string {
  const headers = { ...HEADERS, ...extra }
  const count = op.body || op.path(0) !== op.path(1) ? CALLS : 1
  const calls = Array.from({ length: count }, (_, n) => {
    const body = op.body?.(n)
    return `{${longString(op.path(n))}, ${body === undefined ? 'nil' : longString(JSON.stringify(body))}}`
  })
  const lua = `local headers = {${Object.entries(headers).map(([name, value]) => `[ ${longString(name)} ] = ${longString(value)}`).join(', ')}}
local calls = {${calls.join(',\n')}}
local prepared = {}
local i = 0
function init(args)
  for k, call in ipairs(calls) do prepared[k] = wrk.format(${JSON.stringify(op.method)}, call[1], headers, call[2]) end
end
function request()
  i = i % #prepared + 1
  return prepared[i]
end
`
  const file = join(SCRIPTS, `${op.name}-${Object.keys(extra).join('-') || 'plain'}.lua`)
  writeFileSync(file, lua)
  return file
}

export interface WrkReading {
  /** 2xx (and 3xx) answers per second: wrk's Requests/sec less its non-2xx/3xx. */
  rps: number
  /** Every answer per second, as wrk prints it. */
  wrkRps: number
  p50: number
  p99: number
  non2xx: number
  socketErrors: number
  /** wrk's own CPU time over the reading, in % of one core. */
  cpuPercent: number
  seconds: number
}

const UNIT_MS: Record<string, number> = { us: 0.001, ms: 1, s: 1000, m: 60_000 }
const toMs = (figure: string) => {
  const [, value, unit] = /^([\d.]+)(us|ms|s|m)$/.exec(figure) ?? []
  return value === undefined ? NaN : Number(value) * UNIT_MS[unit!]!
}

/**
 * One wrk run (-t1 -c<connections> -d<seconds>s --latency; wrk takes whole seconds) against 127.0.0.1:<port>. Its CPU is
 * read as the children's time of the shell that waited for it (/proc/<shell>/stat, after wrk).
 */
export function runWrk(wrk: string, port: number, script: string, connections: number, seconds: number): Promise<WrkReading> {
  const pin = PINNED ? `taskset -c 1 ` : ''
  const command = `${pin}${wrk} -t1 -c${connections} -d${Math.max(1, Math.round(seconds))}s --latency -s '${script}' http://127.0.0.1:${port} && echo "@stat $(cat /proc/$$/stat)"`
  return new Promise((resolve, reject) => {
    const child = spawn('sh', ['-c', command], { stdio: ['ignore', 'pipe', 'pipe'] })
    let out = ''
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()))
    child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()))
    child.once('error', reject)
    child.once('exit', (code) => {
      if (code !== 0) return reject(new Error(`wrk exited ${code}: ${out.slice(-1000)}`))
      resolve(parseWrk(out))
    })
  })
}

function parseWrk(out: string): WrkReading {
  const [, requests, duration] = /(\d+) requests in ([\d.]+\w+),/.exec(out) ?? []
  const seconds = toMs(duration ?? '') / 1000
  const non2xx = Number(/Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1] ?? 0)
  const socketErrors = [...(/Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out) ?? [])].slice(1).reduce((sum, n) => sum + Number(n), 0)
  const percentile = (p: number) => toMs(new RegExp(`^\\s+${p}%\\s+(\\S+)`, 'm').exec(out)?.[1] ?? '')
  // /proc/<pid>/stat after ") ": fields 16 and 17 (cutime, cstime) are the 14th and 15th, in ticks of 10 ms.
  const stat = /@stat .*\) (.*)/.exec(out)?.[1]?.split(' ') ?? []
  const childCpuMs = (Number(stat[13]) + Number(stat[14])) * 10
  return {
    rps: (Number(requests) - non2xx) / seconds,
    wrkRps: Number(requests) / seconds,
    p50: percentile(50),
    p99: percentile(99),
    non2xx,
    socketErrors,
    cpuPercent: (100 * childCpuMs) / (seconds * 1000),
    seconds,
  }
}
