/**
 * What an inspector page left open costs the server under load: the same calls at 50 connections
 * with a real page open in Debian's Chromium (showing the tenant being called) and with none, in
 * one run, taking turns (the order rotates each round, so drift falls on every condition alike).
 * A third condition sends the page's own requests (its event stream and its once-a-second
 * re-reads) from this process, without a browser: what the server does for the page, apart from
 * what the browser's own work on the machine takes from it.
 *
 * The server runs from the build, pinned to core 0; this process (autocannon) and the browser on
 * core 1. Read per turn: answers per second, the server's CPU time per answered call (/proc),
 * latency, autocannon's and the browser's CPU, and what the page asked of the server.
 *
 *   npm run bench:inspector
 *   BENCH_INSPECTOR_SECONDS=20 BENCH_INSPECTOR_ROUNDS=6 BENCH_INSPECTOR_OPERATION=getSubscriber npm run bench:inspector
 */
import autocannon from 'autocannon'
import { request } from 'node:http'
import { chromium, type Browser } from 'playwright-core'
import { OPERATIONS, requestOf } from './lib/operations.ts'
import { cpuMs, HEADERS, NOVU_MOCK, PINNED, start, stop, treeCpuMs } from './lib/processes.ts'

const SECONDS = Number(process.env.BENCH_INSPECTOR_SECONDS ?? 10)
const ROUNDS = Number(process.env.BENCH_INSPECTOR_ROUNDS ?? 6)
const CONNECTIONS = 50
const OPERATION = OPERATIONS.find((op) => op.name === (process.env.BENCH_INSPECTOR_OPERATION ?? 'markMessagesAs'))
if (!OPERATION) throw new Error(`no operation ${process.env.BENCH_INSPECTOR_OPERATION}: one of ${OPERATIONS.map((op) => op.name).join(', ')}`)
const TENANT = HEADERS.Authorization.slice('ApiKey '.length)
const CHROMIUM = '/usr/bin/chromium'
/** What the page reads once a second while calls arrive (src/admin/ui/inspector.js). */
const PAGE_READS = ['/__admin/state', '/__admin/channel-connections?limit=25', '/__admin/tenants']

const CONDITIONS = ['no page', 'page open', 'page requests'] as const
type Condition = (typeof CONDITIONS)[number]

interface Turn {
  condition: Condition
  rps: number
  cpuUsPerCall: number
  p50: number
  p99: number
  /** This process's CPU (autocannon) and the browser's (every process of it), in % of a core. */
  loadCpu: number
  browserCpu: number
  /** What the page asked of the server during the turn, by path, per second. */
  pageReads: Record<string, number>
}

/** Something open beside the load for one turn, and what it asked of the server. */
interface Companion {
  reads: string[]
  close(): Promise<void>
}

const counter = { n: 0 }

function load(port: number): Promise<autocannon.Result> {
  const op = OPERATION!
  return autocannon({
    url: `http://127.0.0.1:${port}`,
    connections: CONNECTIONS,
    duration: SECONDS,
    headers: HEADERS,
    requests: [requestOf(op, counter)],
  })
}

/** A page showing the tenant under load, as a user leaves it: picked from the list, live. */
async function openPage(browser: Browser, port: number): Promise<Companion> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } })
  const page = await context.newPage()
  const reads: string[] = []
  page.on('request', (req) => reads.push(new URL(req.url()).pathname))
  await page.goto(`http://127.0.0.1:${port}/__admin/ui`)
  await page.click(`#tenants li[data-key="${TENANT}"] button`, { timeout: 15_000 })
  await page.waitForSelector('#status.live', { timeout: 15_000 })
  reads.length = 0
  return { reads, close: () => context.close() }
}

/** The page's requests without the page: its event stream, and its re-reads once a second. */
async function pageRequests(port: number): Promise<Companion> {
  const reads: string[] = []
  const get = (path: string) =>
    new Promise<void>((resolve) => {
      reads.push(path.split('?')[0]!)
      request({ host: '127.0.0.1', port, path, headers: HEADERS }, (res) => res.resume().on('end', resolve)).end()
    })
  const stream = request({ host: '127.0.0.1', port, path: '/__admin/events?bodies=false', headers: HEADERS }, (res) => res.resume())
  stream.on('error', () => {})
  stream.end()
  const timer = setInterval(() => void Promise.all(PAGE_READS.map(get)), 1000)
  return {
    reads,
    close: async () => {
      clearInterval(timer)
      stream.destroy()
    },
  }
}

async function turn(condition: Condition, port: number, serverPid: number, browser: Browser): Promise<Turn> {
  const companion = condition === 'page open' ? await openPage(browser, port) : condition === 'page requests' ? await pageRequests(port) : undefined
  const [cpuBefore, browserBefore, loadBefore] = [cpuMs(serverPid), browserCpuMs(serverPid), process.cpuUsage()]
  const result = await load(port)
  const cpu = cpuMs(serverPid) - cpuBefore
  const browserCpu = condition === 'page open' ? (browserCpuMs(serverPid) - browserBefore) / (10 * SECONDS) : 0
  const loadUsage = process.cpuUsage(loadBefore)
  const pageReads: Record<string, number> = {}
  for (const path of companion?.reads ?? []) pageReads[path] = (pageReads[path] ?? 0) + 1 / SECONDS
  await companion?.close()
  return {
    condition,
    rps: result.requests.average,
    cpuUsPerCall: (cpu * 1000) / result.requests.total,
    p50: result.latency.p50,
    p99: result.latency.p99,
    loadCpu: (loadUsage.user + loadUsage.system) / (10_000 * SECONDS),
    browserCpu,
    pageReads,
  }
}

/** CPU time of every process this one started but the server: the browser, its renderers and helpers, in ms. */
function browserCpuMs(serverPid: number): number {
  return treeCpuMs(process.pid) - cpuMs(process.pid) - cpuMs(serverPid)
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = sorted.length >> 1
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2
}

function printTurn(round: number, t: Turn): void {
  const reads = Object.entries(t.pageReads).map(([path, perSecond]) => `${path} ${perSecond.toFixed(1)}/s`).join(', ')
  const browser = t.condition === 'page open' ? `  browser ${t.browserCpu.toFixed(0)}%` : ''
  console.log(
    `round ${round + 1} ${t.condition.padEnd(13)} ${t.rps.toFixed(0).padStart(6)} req/s  ${t.cpuUsPerCall.toFixed(1).padStart(5)} µs CPU/call  ` +
      `p50 ${t.p50} ms  p99 ${String(t.p99).padStart(2)} ms  autocannon ${t.loadCpu.toFixed(0)}%${browser}${reads ? `  ${reads}` : ''}`,
  )
}

function printSummary(turns: Turn[]): void {
  const rounds = Array.from({ length: ROUNDS }, (_, round) => turns.slice(round * CONDITIONS.length, (round + 1) * CONDITIONS.length))
  const ratio = (condition: Condition, of: (t: Turn) => number) =>
    median(rounds.map((turnsOfRound) => of(turnsOfRound.find((t) => t.condition === condition)!) / of(turnsOfRound.find((t) => t.condition === 'no page')!)))
  console.log('\nmedians         req/s  server µs CPU/call  p99 ms   req/s over no page  CPU/call over no page')
  for (const condition of CONDITIONS) {
    const of = turns.filter((t) => t.condition === condition)
    console.log(
      `${condition.padEnd(13)} ${median(of.map((t) => t.rps)).toFixed(0).padStart(7)}  ${median(of.map((t) => t.cpuUsPerCall)).toFixed(1).padStart(18)}  ${String(median(of.map((t) => t.p99))).padStart(6)}` +
        `   ${ratio(condition, (t) => t.rps).toFixed(3).padStart(17)}×  ${ratio(condition, (t) => t.cpuUsPerCall).toFixed(3).padStart(20)}×`,
    )
  }
}

const running = await start(NOVU_MOCK)
const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] })
try {
  const serverPid = running.child.pid!
  const where = PINNED ? 'server on core 0, autocannon and the browser on core 1' : 'unpinned'
  console.log(`${OPERATION.name} at ${CONNECTIONS} connections, ${ROUNDS} rounds of ${CONDITIONS.length} turns of ${SECONDS} s (${where})`)
  await load(running.port) // warm-up; also makes the tenant one the server holds, so the page lists it
  const turns: Turn[] = []
  for (let round = 0; round < ROUNDS; round++) {
    // Each round starts with the next condition, so none always follows the same one.
    const order = CONDITIONS.map((_, i) => CONDITIONS[(i + round) % CONDITIONS.length]!)
    const results: Turn[] = []
    for (const condition of order) {
      const t = await turn(condition, running.port, serverPid, browser)
      results.push(t)
      printTurn(round, t)
    }
    turns.push(...CONDITIONS.map((condition) => results.find((t) => t.condition === condition)!))
  }
  printSummary(turns)
} finally {
  await browser.close()
  await stop(running)
}
