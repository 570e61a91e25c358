/**
 * novu-mock against the bare node:http ceiling, both measured by wrk (-t1, 50 connections), the
 * load generator an outside user runs by hand. novu-mock has default flags: log level info, its
 * log to a file (as a user redirects it), responses validated, the journal on, the rate limit
 * counted. Server on core 0, wrk on core 1; per operation a warm-up of each server, then rounds in
 * which the two take turns (the first alternating), each reading with the server's CPU and wrk's.
 * Then p50/p99 at 1 connection, by wrk and by one sequential raw-socket client. Prints every reading and the ratios; raw results to
 * bench/results/<time>-wrk.json.
 *
 *   npm run bench                               # 3 rounds of 5 s per server and operation (~4 min)
 *   npm run bench -- --autocannon               # autocannon's reading beside wrk's, same servers, same minute
 *   npm run bench -- --build /path/to/old       # an older build (built) as a third server, and start-ups old vs new
 *   npm run bench -- getSubscriber              # only these operations
 *   npm run bench -- --costs                    # what each default costs an answer: novu-mock again with it off
 *   BENCH_DURATION=5 BENCH_WARMUP=2 BENCH_ROUNDS=3 npm run bench
 */
import autocannon from 'autocannon'
import { join } from 'node:path'
import { answerSizes, ceilingDef } from './lib/ceiling.ts'
import { OPERATIONS, requestOf, type Operation } from './lib/operations.ts'
import { cpuMs, HEADERS, logFileOf, NOVU_MOCK, PINNED, start, stop, type Running, type ServerDef } from './lib/processes.ts'
import { RawClient, rawRequest } from './lib/raw-client.ts'
import { median, percentile } from './lib/percentile.ts'
import { writeResults } from './lib/results.ts'
import { findWrk, runWrk, wrkScript } from './lib/wrk.ts'

const argv = process.argv.slice(2)
const valueOf = (flag: string) => (argv.includes(flag) ? argv[argv.indexOf(flag) + 1] : undefined)
const BUILD = valueOf('--build')
const AUTOCANNON = argv.includes('--autocannon')
const COSTS = argv.includes('--costs')
const only = argv.filter((arg, i) => !arg.startsWith('-') && argv[i - 1] !== '--build')
const DURATION = Number(process.env.BENCH_DURATION ?? 5)
const WARMUP = Number(process.env.BENCH_WARMUP ?? 2)
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 3))
const CONNECTIONS = 50
const STARTS = 5

const wrk = findWrk()
if (!wrk) {
  console.error('npm run bench needs wrk, which is not installed: apt-get install wrk (Debian, Ubuntu) or brew install wrk. Nothing was measured.')
  process.exit(2)
}

const operations = OPERATIONS.filter(({ name }) => only.length === 0 || only.includes(name))
const OLD: ServerDef | undefined = BUILD ? { ...NOVU_MOCK, name: 'novu-mock old', command: (port) => [process.execPath, join(BUILD, 'bin/novu-mock.js'), '--port', String(port), '--host', '127.0.0.1'] } : undefined
const CEILING = ceilingDef(await answerSizes(NOVU_MOCK))
/**
 * novu-mock with one default turned off, then all three: the difference in CPU an answer from
 * novu-mock's own is what that default costs (no behaviour changes to win a figure: these only measure).
 */
const withOff = (name: string, flags: string[]): ServerDef => ({ ...NOVU_MOCK, name, command: (port) => [...NOVU_MOCK.command(port), ...flags] })
const OFF = { log: ['--log-level', 'silent'], validation: ['--response-validation', 'off'], journal: ['--journal-size', '0'] }
const ALL_OFF = withOff('none of them', [...OFF.log, ...OFF.validation, ...OFF.journal])
const COST_DEFS = COSTS ? [withOff('no log', OFF.log), withOff('no validation', OFF.validation), withOff('no journal', OFF.journal), ALL_OFF] : []
const defs = [NOVU_MOCK, ...(OLD ? [OLD] : []), ...COST_DEFS, CEILING]

interface Reading {
  round: number
  server: string
  tool: 'wrk' | 'autocannon'
  operation: string
  connections: number
  rps: number
  p50: number
  p99: number
  non2xx: number
  /** The server's CPU time over the reading, in % of one core, and per answer in µs. */
  serverCpuPercent: number
  serverCpuUsPerAnswer: number
  /** The load generator's CPU in % of one core (autocannon's is this process's, all threads). */
  loadCpuPercent: number
}

const running = new Map<ServerDef, Running>()
for (const def of defs) running.set(def, await start(def, { logFile: logFileOf(def.name) }))

async function autocannonReading(port: number, op: Operation, connections: number, seconds: number) {
  const before = process.cpuUsage()
  const result = await autocannon({ url: `http://127.0.0.1:${port}`, connections, duration: seconds, requests: [requestOf(op, { n: 0 })] })
  const used = process.cpuUsage(before)
  return {
    rps: result['2xx'] / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    cpuPercent: (used.user + used.system) / (10_000 * result.duration),
  }
}

async function reading(round: number, def: ServerDef, tool: Reading['tool'], op: Operation, connections: number, seconds: number): Promise<Reading> {
  const server = running.get(def)!
  const cpuBefore = cpuMs(server.child.pid)
  const measured =
    tool === 'wrk'
      ? await runWrk(wrk!, server.port, wrkScript(op), connections, seconds)
      : await autocannonReading(server.port, op, connections, seconds)
  const serverCpuMs = cpuMs(server.child.pid) - cpuBefore
  const answers = measured.rps * seconds
  return {
    round,
    server: def.name,
    tool,
    operation: op.name,
    connections,
    rps: measured.rps,
    p50: measured.p50,
    p99: measured.p99,
    non2xx: measured.non2xx,
    serverCpuPercent: serverCpuMs / (10 * seconds),
    serverCpuUsPerAnswer: (serverCpuMs * 1000) / answers,
    loadCpuPercent: measured.cpuPercent,
  }
}

const tools: Reading['tool'][] = AUTOCANNON ? ['wrk', 'autocannon'] : ['wrk']
console.log(
  `wrk bench: ${ROUNDS} round(s) of ${DURATION} s per server, tool and operation after ${WARMUP} s of warm-up, ${CONNECTIONS} connections; ` +
    `${PINNED ? 'server on core 0, load generator on core 1' : 'NOT pinned (no taskset or < 2 cores)'}; servers: ${defs.map((d) => d.name).join(', ')}; tools: ${tools.join(', ')}`,
)
const readings: Reading[] = []
const fmt = (n: number, digits = 0) => (Number.isFinite(n) ? n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits }) : '-')
for (const op of operations) {
  for (const def of defs) await reading(0, def, 'wrk', op, CONNECTIONS, WARMUP)
  for (let round = 1; round <= ROUNDS; round++) {
    const order = round % 2 ? defs : [...defs].reverse()
    for (const def of order) {
      for (const tool of round % 2 ? tools : [...tools].reverse()) {
        const r = await reading(round, def, tool, op, CONNECTIONS, DURATION)
        readings.push(r)
        console.log(
          `  ${op.name.padEnd(28)} round ${round}  ${def.name.padEnd(14)} ${tool.padEnd(10)} ${fmt(r.rps).padStart(7)} req/s  p50 ${fmt(r.p50, 2)} p99 ${fmt(r.p99, 2)} ms  ` +
            `server CPU ${fmt(r.serverCpuPercent)}% (${fmt(r.serverCpuUsPerAnswer, 1)} µs/answer), ${tool} CPU ${fmt(r.loadCpuPercent)}%${r.non2xx ? `  ${r.non2xx} non-2xx!` : ''}`,
        )
      }
    }
  }
}
for (const op of operations) for (const def of defs) readings.push(await reading(0, def, 'wrk', op, 1, Math.min(DURATION, 3)))

/**
 * p50 and p99 (ms) at 1 connection by one raw socket writing prepared requests one after another
 * (bench/lib/raw-client.ts): on this kind of machine wrk's p99 at 1 connection reads even the bare
 * server several times higher than a client that times each answer to its last byte does.
 */
async function sequentialLatency(def: ServerDef, op: Operation, seconds: number): Promise<{ p50: number; p99: number }> {
  const client = await RawClient.open(running.get(def)!.port)
  const micros: number[] = []
  try {
    for (let n = 0, end = performance.now() + seconds * 1000; performance.now() < end; n++) {
      const body = op.body?.(n)
      micros.push(await client.call(rawRequest(op.method, op.path(n), HEADERS, body === undefined ? undefined : JSON.stringify(body))))
    }
  } finally {
    client.close()
  }
  return { p50: percentile(micros, 50) / 1000, p99: percentile(micros, 99) / 1000 }
}
const sequential: { operation: string; server: string; p50: number; p99: number }[] = []
for (const op of operations) for (const def of defs) sequential.push({ operation: op.name, server: def.name, ...(await sequentialLatency(def, op, Math.min(DURATION, 3))) })

const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length
const rpsOf = (server: string, tool: string, op: string, round: number) => readings.find((r) => r.server === server && r.tool === tool && r.operation === op && r.round === round && r.connections === CONNECTIONS)?.rps ?? NaN
const rounds = Array.from({ length: ROUNDS }, (_, i) => i + 1)
console.log(`\nreq/s at ${CONNECTIONS} connections by wrk, per round, and novu-mock over node:http (mean of the rounds' ratios)`)
for (const op of operations) {
  for (const def of defs.filter((d) => d !== CEILING)) {
    const ratios = rounds.map((round) => rpsOf(def.name, 'wrk', op.name, round) / rpsOf(CEILING.name, 'wrk', op.name, round))
    console.log(
      `  ${op.name.padEnd(28)} ${def.name.padEnd(14)} ${rounds.map((round) => fmt(rpsOf(def.name, 'wrk', op.name, round)).padStart(7)).join(' ')}   node:http ${rounds.map((round) => fmt(rpsOf(CEILING.name, 'wrk', op.name, round)).padStart(7)).join(' ')}` +
        `   ratios ${ratios.map((r) => r.toFixed(2)).join(' ')}  mean ${mean(ratios).toFixed(2)}x`,
    )
  }
}
const cpuUsOf = (server: string, op: string) => median(readings.filter((r) => r.server === server && r.tool === 'wrk' && r.operation === op && r.round > 0 && r.connections === CONNECTIONS).map((r) => r.serverCpuUsPerAnswer))
console.log(`\nthe server's CPU an answer (µs, median of the rounds), and node:http's over novu-mock's: an estimate of the ratio with a core to itself`)
for (const op of operations) {
  for (const def of defs.filter((d) => d !== CEILING)) {
    console.log(`  ${op.name.padEnd(28)} ${def.name.padEnd(14)} ${fmt(cpuUsOf(def.name, op.name), 1).padStart(6)} µs   node:http ${fmt(cpuUsOf(CEILING.name, op.name), 1).padStart(6)} µs   ${(cpuUsOf(CEILING.name, op.name) / cpuUsOf(def.name, op.name)).toFixed(2)}x`)
  }
}
if (COSTS) {
  console.log(`\nwhat each default costs an answer: novu-mock's CPU an answer less that with it off (µs, medians), and what is left over node:http's`)
  for (const op of operations) {
    const own = cpuUsOf(NOVU_MOCK.name, op.name)
    const costs = COST_DEFS.map((def) => `${def.name} ${fmt(own - cpuUsOf(def.name, op.name), 1)}`).join('   ')
    console.log(`  ${op.name.padEnd(28)} ${costs}   left without them ${fmt(cpuUsOf(ALL_OFF.name, op.name) - cpuUsOf(CEILING.name, op.name), 1)}`)
  }
}
if (AUTOCANNON) {
  console.log('\nautocannon over wrk, same server, same round (mean of the rounds; within 0.85-1.15 they agree)')
  for (const op of operations) {
    console.log(`  ${op.name.padEnd(28)} ${defs.map((def) => `${def.name} ${mean(rounds.map((round) => rpsOf(def.name, 'autocannon', op.name, round) / rpsOf(def.name, 'wrk', op.name, round))).toFixed(2)}x`).join('   ')}`)
  }
}
console.log('\np50 / p99 (ms) at 1 connection by wrk')
for (const r of readings.filter((r) => r.connections === 1)) console.log(`  ${r.operation.padEnd(28)} ${r.server.padEnd(14)} ${fmt(r.rps).padStart(7)} req/s  ${fmt(r.p50, 3)} / ${fmt(r.p99, 3)}`)
console.log('\np50 / p99 (ms) at 1 connection by one raw socket, a call after another')
for (const r of sequential) console.log(`  ${r.operation.padEnd(28)} ${r.server.padEnd(14)} ${fmt(r.p50, 3)} / ${fmt(r.p99, 3)}`)

const startupMs: Record<string, number[]> = {}
if (OLD) {
  // Process start to the first answer of /__admin/health, unpinned as a user runs it, old and new taking turns.
  for (let i = 0; i < STARTS; i++) {
    for (const def of i % 2 ? [OLD, NOVU_MOCK] : [NOVU_MOCK, OLD]) {
      const started = await start(def, { pinned: false, logFile: '/dev/null' })
      ;(startupMs[def.name] ??= []).push(started.startupMs)
      await stop(started)
    }
  }
  console.log(`\nstart-up, process start to the first answer of /__admin/health (ms, ${STARTS} unpinned starts each)`)
  for (const [name, values] of Object.entries(startupMs)) console.log(`  ${name.padEnd(14)} ${values.map((v) => fmt(v)).join(', ')}   mean ${fmt(mean(values))}`)
}
for (const server of running.values()) await stop(server)
const file = writeResults({ date: new Date().toISOString(), config: { durationS: DURATION, warmupS: WARMUP, rounds: ROUNDS, connections: CONNECTIONS, pinned: PINNED, build: BUILD ?? null, node: process.version }, readings, sequential, startupMs }, '-wrk')
console.log(`\nraw results: ${file}; the servers' logs in ${logFileOf('').replace(/-?\.log$/, '')}`)
