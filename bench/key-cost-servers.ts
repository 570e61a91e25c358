/**
 * Target 8 read so that a key pays for all it leaves behind: servers that get only keyed calls
 * against servers that get only plain ones, each server's cost being its own CPU time (all its
 * threads, the collector's included, wherever it ran) over the calls it answered. On one server
 * that switches kinds (bench/key-cost.ts), what a keyed call leaves for the collector falls partly
 * on the calls after it.
 *
 * Processes of the same build differ by a few percent (heap layout, compiled code), so there are
 * eight servers of each kind (a run's spread narrows with the square root of their number),
 * started in alternating order. They take turns at 50 connections in windows of 200 ms, so that
 * every server meets the same machine. The connections open once every server is up, and a turn
 * comes round every 3.2 s: a connection waits less than the server allows, 10 s for a first
 * request and 5 s between two.
 *
 *   npm run bench:key                          # this after bench/key-cost.ts
 *   BENCH_KEY_SECONDS=60 BENCH_KEY_OPERATION=markMessagesAs tsx bench/key-cost-servers.ts
 *   BENCH_KEY_CONTROL=1 tsx bench/key-cost-servers.ts   # the "keyed" servers get plain calls too: reads 1.0 but for noise
 *   BENCH_KEY_SHAPE=minimal tsx bench/key-cost-servers.ts   # the bench's three headers rather than the SDK's request
 */
import { CONNECTIONS, KEY_HEADER, NO_HEADER, OPERATION, SHAPE, WRITTEN, nextCall } from './lib/key-calls.ts'
import { NOVU_MOCK, cpuMs, sleep, start, stop, type Running } from './lib/processes.ts'
import { RawClient } from './lib/raw-client.ts'
import { writeResults } from './lib/results.ts'

const SECONDS = Number(process.env.BENCH_KEY_SECONDS ?? 120)
const CONTROL = process.env.BENCH_KEY_CONTROL === '1'
const PAIRS = 8
const WINDOW_MS = 200

interface Server {
  keyed: boolean
  running: Running
  clients: RawClient[]
  /** Resolved while the server has its turn. */
  turn: Promise<void>
  begin: () => void
  answered: number
}

async function connect(keyed: boolean, running: Running): Promise<Server> {
  const clients = await Promise.all(Array.from({ length: CONNECTIONS }, () => RawClient.open(running.port)))
  const server: Server = { keyed, running, clients, turn: Promise.resolve(), begin: () => {}, answered: 0 }
  waitForTurn(server)
  return server
}

const state = { running: true }

function waitForTurn(server: Server): void {
  server.turn = new Promise((resolve) => (server.begin = resolve))
}

async function drive(server: Server, client: RawClient): Promise<void> {
  while (state.running) {
    await server.turn
    if (!state.running) return
    await client.call(nextCall(server.keyed && !CONTROL ? KEY_HEADER : NO_HEADER))
    server.answered++
  }
}

async function take(server: Server, ms: number): Promise<void> {
  server.begin()
  await sleep(ms)
  waitForTurn(server)
}

const started: { keyed: boolean; running: Running }[] = []
for (let pair = 0; pair < PAIRS; pair++) {
  for (const keyed of pair % 2 === 0 ? [true, false] : [false, true]) started.push({ keyed, running: await start(NOVU_MOCK) })
}
const servers = await Promise.all(started.map(({ keyed, running }) => connect(keyed, running)))
const driving = servers.flatMap((server) => server.clients.map((client) => drive(server, client)))
try {
  // 1.2 s of warm-up for each server, in turns as short as the measured ones.
  for (let pass = 0; pass < 6; pass++) for (const server of servers) await take(server, WINDOW_MS)
  await sleep(200)
  const answeredBefore = servers.map((server) => server.answered)
  const cpuBefore = servers.map((server) => cpuMs(server.running.child.pid))
  const end = performance.now() + SECONDS * 1000
  for (let cycle = 0; performance.now() < end; cycle++) {
    // A stride of 3 over 16 servers (no common factor) visits each once per cycle, in an order that moves every cycle.
    for (let i = 0; i < servers.length; i++) await take(servers[(i * 3 + cycle) % servers.length]!, WINDOW_MS)
  }
  await sleep(500)
  const costs = servers.map((server, i) => (cpuMs(server.running.child.pid) - cpuBefore[i]!) * 1000 / (server.answered - answeredBefore[i]!))
  report(costs)
} finally {
  state.running = false
  for (const server of servers) {
    server.begin()
    for (const client of server.clients) client.close()
  }
  await Promise.allSettled(driving)
  await Promise.all(servers.map((server) => stop(server.running)))
}

// Declarations, not consts: the run above calls report() before this point is reached.
function mean(xs: number[]): number {
  return xs.reduce((sum, x) => sum + x, 0) / xs.length
}

function variance(xs: number[]): number {
  const m = mean(xs)
  return xs.reduce((sum, x) => sum + (x - m) ** 2, 0) / (xs.length - 1)
}

/**
 * How far a reading of plain/keyed may lie from what more servers would read: the ratio's standard
 * error from the spread of the servers' costs (first-order, each mean's error relative to it).
 * Servers of one build differ by a few percent, which no length of run averages away.
 */
function ratioStandardError(plain: number[], keyed: number[]): number {
  const relative = (xs: number[]) => variance(xs) / xs.length / mean(xs) ** 2
  return (mean(plain) / mean(keyed)) * Math.sqrt(relative(plain) + relative(keyed))
}

function report(costs: number[]): void {
  const of = (keyed: boolean) => costs.filter((_, i) => servers[i]!.keyed === keyed)
  const ratio = mean(of(false)) / mean(of(true))
  const standardError = ratioStandardError(of(false), of(true))
  console.log(`\n${OPERATION.name}, ${PAIRS} servers of each kind at ${CONNECTIONS} connections, ${SECONDS} s, turns of ${WINDOW_MS} ms, ${WRITTEN}; CPU µs per call`)
  if (CONTROL) console.log('  control run: the servers listed as keyed get plain calls too')
  console.log(`  keyed only       ${of(true).map((us) => us.toFixed(1)).join('  ')}`)
  console.log(`  plain only       ${of(false).map((us) => us.toFixed(1)).join('  ')}`)
  // A figure without a verdict: the key's cost (about 6%) is accepted as the price of docs/behaviour.md §4.
  console.log(`\n  idempotency key on every call, ${OPERATION.name}: rps over calls without (servers of one kind each, CPU per call)  ${ratio.toFixed(3)}${CONTROL ? '  (control)' : ''}`)
  console.log(`     standard error of that reading, from the servers' spread: ${standardError.toFixed(3)}`)
  const config = { operation: OPERATION.name, servers: PAIRS, connections: CONNECTIONS, seconds: SECONDS, windowMs: WINDOW_MS, shape: SHAPE, control: CONTROL }
  const file = writeResults({ date: new Date().toISOString(), config, ratio, standardError, keyedCpuUs: of(true), plainCpuUs: of(false) }, `-key-${OPERATION.name}`)
  console.log(`  raw results: ${file}`)
}
