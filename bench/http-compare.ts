/**
 * HTTP benchmark of novu-mock against Prism (default logging and -v error), a bare node:http
 * server (the ceiling) and a naive express 5 + Ajv server (the floor of the stack), on the five
 * operations at 1 and 50 connections. One server at a time, pinned to core 0 (load generator on
 * core 1) when taskset exists; warm-up, interleaved rounds, medians. Prints the tables and the
 * targets, writes the raw results to bench/results/<timestamp>.json, then reads target 8 with
 * servers of one kind each for every write (bench/key-cost-servers.ts; skip with --skip-key) and
 * runs the scale bench (bench/scale.ts; --skip-scale) and the snapshot-restore bench (--skip-snapshot).
 * novu-mock is measured by three clients in turn on the same process: plain calls; an idempotency
 * key on every call (as the official SDK sends); and a browser's calls (Origin, so CORS) while the
 * inspector page's event stream is open. What the key and the browser cost over plain calls is
 * measured apart, taking turns in short slices with plain calls again as the floor (see costsAB), and the key's again as the
 * server's time per call, keyed and plain calls alternating on one socket (see pairedKeyCosts). Start-up is measured
 * apart too, five starts unpinned (as a user runs it), next to the pinned starts of the rounds.
 *
 *   npm run bench:yardsticks           # default: 3 rounds of 1.5 s per measurement (+1.5 s warm-up per operation and client), ~35 min
  *   npm run bench:yardsticks -- --quick         # smoke run: 1 round of 1 s (+0.5 s warm-up), ~5 min
 *   BENCH_DURATION=3 BENCH_WARMUP=1 BENCH_ROUNDS=5 npm run bench:yardsticks
 */
import autocannon from 'autocannon'
import { execFileSync, spawn } from 'node:child_process'
import { existsSync, mkdirSync, realpathSync } from 'node:fs'
import { request } from 'node:http'
import { cpus } from 'node:os'
import { join } from 'node:path'
import { cpuMs, HEADERS, logFileOf, NOVU_MOCK, PINNED, ROOT, rssMb, start, stop, type Running, type ServerDef } from './lib/processes.ts'
import { OPERATIONS, WRITE_OPERATIONS, type Operation } from './lib/operations.ts'
import { RawClient, rawRequest } from './lib/raw-client.ts'
import { writeResults } from './lib/results.ts'
import { answerSizes, ceilingDef } from './lib/ceiling.ts'
import { sdkKey } from './lib/sdk-request.ts'

const argv = process.argv.slice(2)
const QUICK = argv.includes('--quick')
const SKIP_SNAPSHOT = argv.includes('--skip-snapshot')
const SKIP_SCALE = argv.includes('--skip-scale')
const SKIP_KEY = argv.includes('--skip-key')
const SKIP_PRISM = argv.includes('--skip-prism') || process.env.BENCH_SKIP_PRISM === '1'
const DURATION = Number(process.env.BENCH_DURATION ?? (QUICK ? 1 : 1.5))
const WARMUP = Number(process.env.BENCH_WARMUP ?? (QUICK ? 0.5 : 1.5))
const ROUNDS = Math.max(1, Math.min(50, Math.floor(Number(process.env.BENCH_ROUNDS ?? (QUICK ? 1 : 3)))))
const CONNECTIONS = [1, 50] as const
const PRISM_DIR = join(ROOT, 'bench/.cache/prism')
const PRISM_BIN = join(PRISM_DIR, 'node_modules/.bin/prism')


// ------------------------------------------------------------------------------ load
interface Sample {
  round: number
  server: string
  operation: string
  connections: number
  rps: number
  p50: number
  p99: number
  ok: number
  non2xx: number
  errors: number
  timeouts: number
  durationS: number
}

const percentile = (sorted: Float64Array, p: number) =>
  sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!

/** One autocannon run; latencies (ms, sub-millisecond) recorded here from its response events. */
function load(client: Client, port: number, op: Operation, connections: number, seconds: number, counter: { n: number }, record: boolean) {
  const latencies: number[] = []
  const unobserve = client.observe?.(port)
  return new Promise<Omit<Sample, 'round' | 'server' | 'operation'>>((resolve, reject) => {
    const instance = autocannon(
      {
        url: `http://127.0.0.1:${port}`,
        connections,
        duration: seconds,
        timeout: 10,
        headers: HEADERS,
        requests: [
          {
            method: op.method,
            path: op.path(0),
            setupRequest: (req) => {
              const n = counter.n++
              const body = op.body?.(n)
              // A new object each time: autocannon writes the body's Content-Length into it.
              const headers = { ...HEADERS, ...client.requestHeaders?.() }
              return { ...req, path: op.path(n), headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) }
            },
          },
        ],
      },
      (error, result) => {
        unobserve?.()
        if (error) return reject(error)
        const sorted = Float64Array.from(latencies).sort()
        const ok = result['2xx']
        resolve({
          connections,
          rps: ok / result.duration,
          p50: percentile(sorted, 50),
          p99: percentile(sorted, 99),
          ok,
          non2xx: result.non2xx,
          errors: result.errors,
          timeouts: result.timeouts,
          durationS: result.duration,
        })
      },
    )
    if (record) {
      instance.on('response', (_client: unknown, status: number, _bytes: number, ms: number) => {
        if (status >= 200 && status < 300 && latencies.length < 5_000_000) latencies.push(ms)
      })
    }
  })
}

// ------------------------------------------------------------------------------ servers
function ensurePrism(): string | undefined {
  if (SKIP_PRISM) return 'skipped by --skip-prism'
  if (existsSync(PRISM_BIN)) return undefined
  console.log(`installing @stoplight/prism-cli into ${PRISM_DIR} …`)
  try {
    mkdirSync(PRISM_DIR, { recursive: true })
    execFileSync('npm', ['install', '--no-audit', '--no-fund', '--prefix', PRISM_DIR, '@stoplight/prism-cli'], { stdio: ['ignore', 'ignore', 'pipe'], timeout: 300_000 })
  } catch (error) {
    const stderr = (error as { stderr?: Buffer }).stderr?.toString().trim().split('\n').slice(-5).join('\n')
    return `npm install @stoplight/prism-cli failed: ${stderr || (error as Error).message}`
  }
  return existsSync(PRISM_BIN) ? undefined : 'prism binary missing after install'
}

const node = process.execPath
const tsxServer = (file: string, ...args: string[]) => [node, '--import', 'tsx', join(ROOT, file), ...args]
const anyAnswer = { path: '/v2/subscribers/demo-subscriber-1', ok: (status: number) => status > 0 }

/** How one kind of client calls a server; its results go under its name. */
interface Client {
  name: string
  /** Headers added to every request, made per request. */
  requestHeaders?(): Record<string, string>
  /** Something kept open against the server while this client calls it; returns how to close it. */
  observe?(port: number): () => void
}

/** A server and its clients, measured in turn on the same process (their ratio free of process-to-process drift). */
interface BenchServer extends ServerDef {
  clients?: Client[]
}

const NOVU: BenchServer = { ...NOVU_MOCK }
let idempotencyKeys = 0
/** As the official SDK calls it: a new idempotency key on every call, named and shaped as the SDK's (the other headers are the bench's own). */
const IDEMPOTENT: Client = { name: 'novu-mock idem', requestHeaders: () => ({ 'idempotency-key': sdkKey(++idempotencyKeys) }) }
/** A browser frontend with the inspector page open: CORS on every call, the journal streamed as the page asks for it. */
const BROWSER: Client = {
  name: 'novu-mock browser',
  requestHeaders: () => ({ Origin: 'http://localhost:5173' }),
  observe(port) {
    const headers = { ...HEADERS, Accept: 'text/event-stream' }
    const stream = request({ host: '127.0.0.1', port, path: '/__admin/events?bodies=false', headers }, (res) => res.resume())
    stream.on('error', () => {})
    stream.end()
    return () => stream.destroy()
  },
}
const PLAIN: Client = { name: NOVU.name }
NOVU.clients = [PLAIN, IDEMPOTENT, BROWSER]
const clientsOf = (server: BenchServer): Client[] => server.clients ?? [{ name: server.name }]
const NOVU_CLIENT_NAMES = clientsOf(NOVU).map((client) => client.name)
const prismDef = (name: string, extra: string[]): ServerDef => ({
  name,
  command: (port) => [node, realpathSync(PRISM_BIN), 'mock', join(ROOT, 'spec/openapi.yaml'), '-p', String(port), '-h', '127.0.0.1', ...extra],
  ready: anyAnswer,
})
const NAIVE: ServerDef = { name: 'express+ajv', command: (port) => tsxServer('bench/servers/naive-express.ts', String(port)), ready: anyAnswer }

// ------------------------------------------------------------------------------ run
const median = (values: number[]) => {
  const sorted = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b)
  if (sorted.length === 0) return NaN
  const mid = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2
}

console.log(
  `HTTP bench: ${ROUNDS} round(s), ${DURATION} s per measurement after ${WARMUP} s warm-up per operation, connections ${CONNECTIONS.join('/')}, ` +
    `${PINNED ? 'server on core 0, load generator on core 1 (taskset)' : 'not pinned (no taskset or < 2 cores)'}`,
)

// Size and status of novu-mock's answers, for the ceiling.
const sizes = await answerSizes(NOVU)

const prismSkipped = ensurePrism()
if (prismSkipped) console.log(`Prism columns skipped: ${prismSkipped}`)
const SERVERS: BenchServer[] = [
  NOVU,
  ...(prismSkipped ? [] : [prismDef('prism', []), prismDef('prism -v error', ['-v', 'error'])]),
  NAIVE,
  ceilingDef(sizes),
]

const samples: Sample[] = []
const startupMs: Record<string, number[]> = {}
const novuRssMb: number[] = []
const failures: string[] = []
const totalMeasurements = ROUNDS * SERVERS.flatMap(clientsOf).length * OPERATIONS.length * CONNECTIONS.length
const benchStarted = performance.now()
for (let round = 0; round < ROUNDS; round++) {
  // Interleaved: each round starts from a different server.
  const order = SERVERS.map((_, i) => SERVERS[(i + round) % SERVERS.length]!)
  for (const def of order) {
    let running: Running
    try {
      running = await start(def, { logFile: logFileOf(def.name) })
    } catch (error) {
      failures.push(`round ${round + 1} ${def.name}: ${(error as Error).message.slice(0, 300)}`)
      console.log(`  ${failures.at(-1)}`)
      continue
    }
    ;(startupMs[def.name] ??= []).push(running.startupMs)
    // Clients of one server take turns, in the opposite order every other round.
    const clients = round % 2 === 0 ? clientsOf(def) : [...clientsOf(def)].reverse()
    for (const op of OPERATIONS) {
      const counter = { n: 0 }
      // One warm-up per operation and client, at the highest concurrency, before its measurements.
      if (WARMUP > 0) for (const client of clients) await load(client, running.port, op, Math.max(...CONNECTIONS), WARMUP, counter, false)
      for (const connections of CONNECTIONS) {
        for (const client of clients) {
          const result = await load(client, running.port, op, connections, DURATION, counter, true)
          samples.push({ round: round + 1, server: client.name, operation: op.name, ...result })
          const bad = result.non2xx + result.errors + result.timeouts
          if (bad > 0) console.log(`  warning: ${client.name} ${op.name} c=${connections}: ${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts`)
          if (process.stdout.isTTY) process.stdout.write(`\r  round ${round + 1}/${ROUNDS} ${def.name.padEnd(15)} ${samples.length}/${totalMeasurements} measurements, ${Math.round((performance.now() - benchStarted) / 1000)} s   `)
        }
      }
    }
    if (!process.stdout.isTTY) console.log(`  round ${round + 1}/${ROUNDS} ${def.name}: done (${samples.length}/${totalMeasurements}, ${Math.round((performance.now() - benchStarted) / 1000)} s)`)
    if (def === NOVU) {
      const rss = rssMb(running.child.pid)
      if (rss !== undefined) novuRssMb.push(rss)
    }
    await stop(running)
  }
}
if (process.stdout.isTTY) process.stdout.write('\n')

const STARTS = 5
const unpinnedStartupMs: number[] = []
for (let i = 0; i < STARTS; i++) {
  const running = await start(NOVU, { pinned: false })
  unpinnedStartupMs.push(running.startupMs)
  await stop(running)
}

// ------------------------------------------------------------------------------ costs A/B
/**
 * What an idempotency key, and a browser with the inspector open, cost over plain calls. Target 8
 * asks for a 5% resolution, finer than this machine's drift: identical calls measured 1.5 s apart
 * differ by up to 30% here. So the clients take turns in short slices on one process, their order
 * rotating, and each figure is the median over the turns of the client's req/s over the plain
 * calls' of the same turn. Plain calls again, as a fourth client, give the method's noise floor.
 * GETs ignore the key, so their idempotency figure is what the header costs by itself (node reads
 * it, whoever uses it), not a floor.
 */
const AB_TURNS = Number(process.env.BENCH_AB_TURNS ?? (QUICK ? 4 : 16))
const AB_SLICE_S = 0.5
/** The same calls as PLAIN under another name: its ratio to PLAIN is what this method reads when nothing differs. */
const PLAIN_AGAIN: Client = { name: 'novu-mock plain again' }
const AB_CLIENTS = [PLAIN, IDEMPOTENT, BROWSER, PLAIN_AGAIN]
async function costsAB(): Promise<Map<string, number>> {
  const ratios = new Map<string, number>()
  const running = await start(NOVU, { logFile: logFileOf(NOVU.name) })
  try {
    for (const op of OPERATIONS) {
      for (const connections of CONNECTIONS) {
        const counter = { n: 0 }
        if (WARMUP > 0) await load(IDEMPOTENT, running.port, op, connections, WARMUP, counter, false)
        const turns: Map<Client, number>[] = []
        for (let i = 0; i < AB_TURNS; i++) {
          const rps = new Map<Client, number>()
          for (let k = 0; k < AB_CLIENTS.length; k++) {
            const client = AB_CLIENTS[(i + k) % AB_CLIENTS.length]!
            rps.set(client, (await load(client, running.port, op, connections, AB_SLICE_S, counter, false)).rps)
          }
          turns.push(rps)
        }
        for (const client of AB_CLIENTS.filter((client) => client !== PLAIN)) ratios.set(`${client.name}|${op.name}|${connections}`, median(turns.map((rps) => rps.get(client)! / rps.get(PLAIN)!)))
      }
    }
  } finally {
    await stop(running)
  }
  return ratios
}
console.log(`costs A/B: ${AB_TURNS} turns of ${AB_SLICE_S} s per client, operation and concurrency, on one process`)
const costRatios = await costsAB()

/**
 * Target 8 again, as the server's own time, which resolves far finer than req/s slices here.
 * - Work per call: keyed and plain calls alternate on one raw socket (bench/lib/raw-client.ts:
 *   prepared bytes, no HTTP client per call, so a header costs the load generator nothing). Each
 *   pair meets the same machine, and the median difference within a pair is what the key costs
 *   the server per call: its header, its record, its echo. A median leaves out the collector's
 *   pauses, which land on one call in hundreds.
 * - The collector: the records live on and a keyed call allocates more, so it pays more of them.
 *   Keyed-only and plain-only blocks of calls take turns on a server run with --trace-gc, and the
 *   difference of their pause time per call is added.
 * - req/s at 50 connections, where the server's core is the limit: c / (c + work + collector), c
 *   being the server's CPU time per plain call there (all its threads, from /proc).
 * The server has the default flags, as in the rounds: its request log goes to a file, as in the
 * rounds, and --trace-gc writes to stdout, whose lines alone are summed.
 */
const KEY_PAIRS = QUICK ? 3000 : 10_000
/** Pairs called first and not counted, per operation. */
const KEY_WARMUP_PAIRS = 1000
const GC_BLOCK_CALLS = QUICK ? 1000 : 2000
const GC_BLOCKS = QUICK ? 5 : 10
const KEY_CPU_SECONDS = QUICK ? 1 : 2
const TRACED_NOVU: ServerDef = { ...NOVU, name: 'novu-mock --trace-gc', command: (port) => [node, '--trace-gc', ...NOVU.command(port).slice(1)] }
/** A collection as --trace-gc reports it; the first figure of "<pause> / <external> ms" is its pause. */
const TRACED_PAUSE = / MB, (?:pooled: [\d.]+ MB, )?([\d.]+) \/ [\d.]+ ms/
interface KeyCost {
  /** µs a keyed call takes over a plain one: the median pair. */
  workUs: number
  /** The collector's pause µs per keyed call over per plain call. */
  collectorUs: number
  /** The server's CPU µs per plain call at 50 connections. */
  plainCpuUs: number
  /** req/s with a key over without at 50 connections. */
  ratio: number
}
/** A request of `op` as bytes, keyed or not; each call's own (bodies and ids rotate). */
type Wire = (op: Operation, keyed: boolean) => Buffer

async function pairedKeyCosts(): Promise<Map<string, KeyCost>> {
  const costs = new Map<string, KeyCost>()
  const trace = collectorTrace()
  const running = await start(TRACED_NOVU, { onStdout: trace.read, logFile: logFileOf(TRACED_NOVU.name) })
  const client = await RawClient.open(running.port)
  let n = 0
  const wire: Wire = (op, keyed) => {
    const i = n++
    const body = op.body?.(i)
    const headers = keyed ? { ...HEADERS, ...IDEMPOTENT.requestHeaders!() } : HEADERS
    return rawRequest(op.method, op.path(i), headers, body === undefined ? undefined : JSON.stringify(body))
  }
  try {
    for (const op of WRITE_OPERATIONS) {
      const workUs = await pairedWorkUs(client, op, wire)
      const collectorUs = await collectorUsPerKey(client, trace, op, wire)
      const plainCpuUs = await cpuPerCall(running, op)
      costs.set(op.name, { workUs, collectorUs, plainCpuUs, ratio: plainCpuUs / (plainCpuUs + workUs + collectorUs) })
    }
  } finally {
    client.close()
    await stop(running)
  }
  return costs
}

/** The median of (keyed − plain) µs over pairs, which of the two goes first alternating. */
async function pairedWorkUs(client: RawClient, op: Operation, wire: Wire): Promise<number> {
  const differences: number[] = []
  for (let i = 0; i < KEY_WARMUP_PAIRS + KEY_PAIRS; i++) {
    const keyedFirst = i % 2 === 1
    const first = await client.call(wire(op, keyedFirst))
    const second = await client.call(wire(op, !keyedFirst))
    if (i >= KEY_WARMUP_PAIRS) differences.push(keyedFirst ? first - second : second - first)
  }
  return median(differences)
}

/** Collector pause µs per keyed call over per plain call, from blocks of each taking turns. */
async function collectorUsPerKey(client: RawClient, trace: ReturnType<typeof collectorTrace>, op: Operation, wire: Wire): Promise<number> {
  const pausedUs = { keyed: 0, plain: 0 }
  for (let block = 0; block < 2 * GC_BLOCKS; block++) {
    const keyed = block % 2 === 1
    const before = await trace.pausedMs()
    for (let i = 0; i < GC_BLOCK_CALLS; i++) await client.call(wire(op, keyed))
    pausedUs[keyed ? 'keyed' : 'plain'] += ((await trace.pausedMs()) - before) * 1000
  }
  return (pausedUs.keyed - pausedUs.plain) / (GC_BLOCKS * GC_BLOCK_CALLS)
}

/** Sums the pauses in a server's --trace-gc lines as its stdout arrives (its other lines pass by). */
function collectorTrace() {
  let pausedMs = 0
  let partialLine = ''
  return {
    read(text: string) {
      const lines = (partialLine + text).split('\n')
      partialLine = lines.pop()!
      for (const line of lines) pausedMs += Number(TRACED_PAUSE.exec(line)?.[1] ?? 0)
    },
    /** Pause ms of every collection traced so far: the lines reach here a moment after they are written. */
    async pausedMs(): Promise<number> {
      await new Promise((resolve) => setTimeout(resolve, 50))
      return pausedMs
    },
  }
}

/** The server's CPU µs (all its threads) per plain call at 50 connections; NaN without /proc. */
async function cpuPerCall(running: Running, op: Operation): Promise<number> {
  const counter = { n: 0 }
  await load(PLAIN, running.port, op, 50, WARMUP || 0.5, counter, false)
  const before = cpuMs(running.child.pid)
  const { ok } = await load(PLAIN, running.port, op, 50, KEY_CPU_SECONDS, counter, false)
  return ((cpuMs(running.child.pid) - before) * 1000) / ok
}

console.log(`key cost per call: ${KEY_PAIRS} keyed and plain calls alternating on one raw socket, then ${GC_BLOCKS} blocks of ${GC_BLOCK_CALLS} of each traced for the collector, per write operation`)
const keyCosts = await pairedKeyCosts()
const costOf = (client: Client, op: Operation, c: number) => costRatios.get(`${client.name}|${op.name}|${c}`)

// ------------------------------------------------------------------------------ report
type Key = `${string}|${string}|${number}`
const medians = new Map<Key, { rps: number; p50: number; p99: number }>()
for (const server of SERVERS.flatMap(clientsOf)) {
  for (const op of OPERATIONS) {
    for (const connections of CONNECTIONS) {
      const mine = samples.filter((s) => s.server === server.name && s.operation === op.name && s.connections === connections)
      if (mine.length === 0) continue
      medians.set(`${server.name}|${op.name}|${connections}`, { rps: median(mine.map((s) => s.rps)), p50: median(mine.map((s) => s.p50)), p99: median(mine.map((s) => s.p99)) })
    }
  }
}
const get = (server: string, op: string, c: number) => medians.get(`${server}|${op}|${c}`)
const fmt = (value: number | undefined, digits = 0) => (value === undefined || !Number.isFinite(value) ? '-' : value.toFixed(digits))
const ratio = (a: number | undefined, b: number | undefined) => (a === undefined || b === undefined || !b ? '-' : `${(a / b).toFixed(2)}x`)
const names = SERVERS.flatMap(clientsOf).map((s) => s.name)
const opWidth = Math.max(...OPERATIONS.map((o) => o.name.length))

const table = (title: string, header: string[], rows: string[][]) => {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)))
  const line = (cells: string[]) => cells.map((c, i) => (i < 2 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ')
  console.log(`\n${title}\n${line(header)}\n${widths.map((w) => '-'.repeat(w)).join('  ')}\n${rows.map(line).join('\n')}`)
}

const rows: string[][] = []
const latencyRows: string[][] = []
for (const op of OPERATIONS) {
  for (const c of CONNECTIONS) {
    const mine = get('novu-mock', op.name, c)
    rows.push([
      op.name.padEnd(opWidth),
      String(c),
      ...names.map((n) => fmt(get(n, op.name, c)?.rps)),
      ratio(mine?.rps, get('prism', op.name, c)?.rps),
      ratio(mine?.rps, get('prism -v error', op.name, c)?.rps),
      ratio(mine?.rps, get('express+ajv', op.name, c)?.rps),
    ])
    latencyRows.push([op.name, String(c), ...names.map((n) => `${fmt(get(n, op.name, c)?.p50, 2)} / ${fmt(get(n, op.name, c)?.p99, 2)}`)])
  }
}
table(`req/s (median of ${ROUNDS} round(s)) and ratios of novu-mock's req/s`, ['operation', 'conns', ...names, 'mock/prism', 'mock/prism-v-err', 'mock/express'], rows)
table('latency p50 / p99 (ms, median over rounds)', ['operation', 'conns', ...names], latencyRows)

// Targets of issue 7 that this bench measures, for a variant of novu-mock.
const check = (ok: boolean | undefined) => (ok === undefined ? 'n/a' : ok ? 'met' : 'NOT met')
const rpsOf = (server: string, op: Operation, c: number) => get(server, op.name, c)?.rps
/** The worst of a per-operation figure (the smallest, or the largest with `highest`), and whether every operation meets the bound. */
function worstOf(figure: (op: Operation) => number | undefined, meets: (value: number) => boolean, highest = false) {
  const values = OPERATIONS.map(figure)
  if (values.some((v) => v === undefined || !Number.isFinite(v))) return { worst: NaN, status: check(undefined) }
  const worst = highest ? Math.max(...(values as number[])) : Math.min(...(values as number[]))
  return { worst, status: check((values as number[]).every(meets)) }
}
function targetsFor(name: string) {
  const startup = median(unpinnedStartupMs)
  return {
    '1. rps >= 4x prism (default logging), 50 conns (worst ratio)': worstOf((op) => rpsOf(name, op, 50)! / rpsOf('prism', op, 50)!, (r) => r >= 4),
    '1. rps >= 2x prism -v error, 50 conns (worst ratio)': worstOf((op) => rpsOf(name, op, 50)! / rpsOf('prism -v error', op, 50)!, (r) => r >= 2),
    '2. rps >= 1.0x express+ajv, 1 conn (worst ratio)': worstOf((op) => rpsOf(name, op, 1)! / rpsOf('express+ajv', op, 1)!, (r) => r >= 1),
    '2. rps >= 1.0x express+ajv, 50 conns (worst ratio)': worstOf((op) => rpsOf(name, op, 50)! / rpsOf('express+ajv', op, 50)!, (r) => r >= 1),
    '3. p99 < 2 ms at 1 conn (worst p99, ms)': worstOf((op) => get(name, op.name, 1)?.p99, (v) => v < 2, true),
    '3. p99 at 50 conns <= 1.2x express+ajv (worst ratio)': worstOf((op) => get(name, op.name, 50)!.p99 / get('express+ajv', op.name, 50)!.p99, (r) => r <= 1.2, true),
    '6. start-up < 500 ms (process start -> first GET /__admin/health, median of 5 unpinned, ms)': { worst: startup, status: check(startup < 500) },
  }
}
const targets: Record<string, Record<string, { worst: number; status: string }>> = Object.fromEntries(NOVU_CLIENT_NAMES.map((name) => [name, targetsFor(name)]))
table(
  `req/s over plain calls, the same process (median of ${AB_TURNS} turns of ${AB_SLICE_S} s slices; plain again/plain is the noise floor; GETs ignore the key, so their idem figure is the header's own cost)`,
  ['operation', 'conns', 'idem/plain', 'browser/plain', 'plain again/plain'],
  OPERATIONS.flatMap((op) => CONNECTIONS.map((c) => [op.name.padEnd(opWidth), String(c), ...[IDEMPOTENT, BROWSER, PLAIN_AGAIN].map((client) => ratio(costOf(client, op, c), 1))])),
)
table(
  `what a key costs the server per call (median of ${KEY_PAIRS} keyed/plain pairs on one socket; collector from --trace-gc), and req/s at 50 connections from it`,
  ['operation', 'work µs', 'collector µs', 'plain call CPU µs, 50 conns', 'idem/plain'],
  [...keyCosts].map(([name, cost]) => [name.padEnd(opWidth), fmt(cost.workUs, 1), fmt(cost.collectorUs, 1), fmt(cost.plainCpuUs, 1), ratio(cost.ratio, 1)]),
)
/** The worst A/B ratio of a client over plain calls, a figure without a target. */
const worstCost = (client: Client, ops: Operation[]) => ({ worst: Math.min(...ops.flatMap((op) => CONNECTIONS.map((c) => costOf(client, op, c) ?? NaN))), status: '' })
// Target 8 itself is read after these tables, by servers of one kind each (bench/key-cost-servers.ts).
targets['novu-mock idem']!['   key: rps over plain calls (worst A/B ratio, writes, 1 and 50 conns; target 8 is read below)'] = worstCost(IDEMPOTENT, WRITE_OPERATIONS)
const pairedWorst = Math.min(...[...keyCosts.values()].map((cost) => cost.ratio))
targets['novu-mock idem']!["   key: the same from its cost per call, paired on one socket (worst, writes, 50 conns)"] = { worst: pairedWorst, status: '' }
targets['novu-mock idem']!['   noise floor: plain calls again over plain calls (worst A/B ratio, every operation; no target)'] = worstCost(PLAIN_AGAIN, OPERATIONS)
targets['novu-mock idem']!['   the header alone: the same for GETs, which ignore the key (worst A/B ratio; no target)'] = worstCost(IDEMPOTENT, OPERATIONS.filter((op) => op.method === 'GET'))
targets['novu-mock browser']!['   CORS and the inspector stream: rps over plain calls (worst A/B ratio; no target)'] = worstCost(BROWSER, OPERATIONS)
for (const [variant, figures] of Object.entries(targets)) {
  console.log(`\ntargets (${variant})`)
  for (const [name, { worst: value, status }] of Object.entries(figures)) console.log(`  ${name.padEnd(84)} ${fmt(value, 2).padStart(8)}  ${status}`)
}
const startsOf = (values: number[] = []) => `median ${fmt(median(values), 0)} ms [${values.map((v) => v.toFixed(0)).join(', ')}]`
console.log(`\n  novu-mock start-up: unpinned ${startsOf(unpinnedStartupMs)}; pinned to one core in the rounds ${startsOf(startupMs['novu-mock'])}`)
console.log(`  novu-mock RSS after the run: ${novuRssMb.length ? `${median(novuRssMb)} MB (per round: ${novuRssMb.join(', ')} MB)` : '-'}`)
if (failures.length) console.log(`\nfailures:\n  ${failures.join('\n  ')}`)

const file = writeResults({
  date: new Date().toISOString(),
  config: { quick: QUICK, durationS: DURATION, warmupS: WARMUP, rounds: ROUNDS, connections: CONNECTIONS, pinned: PINNED, cpus: cpus().length, node: process.version },
  prismSkipped: prismSkipped ?? null,
  ceilingSizes: sizes,
  startupMs,
  unpinnedStartupMs,
  novuRssMb,
  targets,
  medians: Object.fromEntries(medians),
  costRatios: Object.fromEntries(costRatios),
  keyCosts: Object.fromEntries(keyCosts),
  samples,
  failures,
})
console.log(`\nraw results: ${file}`)

// The benches of the other targets, each in its own process (their servers and memory apart).
const FOLLOW_UPS = [
  // Target 8's reading: servers that get only keyed calls against servers that get only plain ones.
  ...WRITE_OPERATIONS.map((op) => ({
    skip: SKIP_KEY,
    title: `key cost, servers of one kind: ${op.name}`,
    file: 'bench/key-cost-servers.ts',
    env: { BENCH_KEY_OPERATION: op.name },
    quickEnv: { BENCH_KEY_SECONDS: '20' },
  })),
  { skip: SKIP_SCALE, title: 'scale bench', file: 'bench/scale.ts', env: {}, quickEnv: { BENCH_SCALE_CONNECTIONS: '200000', BENCH_SCALE_REQUESTS: '30' } },
  { skip: SKIP_SNAPSHOT, title: 'snapshot-restore bench', file: 'bench/snapshot-restore.ts', env: {}, quickEnv: { BENCH_CONNECTIONS: '10000' } },
]
for (const { skip, title, file, env: ownEnv, quickEnv } of FOLLOW_UPS) {
  if (skip) continue
  console.log(`\n${title}`)
  const env = { ...(QUICK ? quickEnv : {}), ...process.env, ...ownEnv }
  const child = spawn(node, ['--import', 'tsx', join(ROOT, file)], { cwd: ROOT, env, stdio: 'inherit' })
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve))
  if (code !== 0) process.exitCode = code ?? 1
}
