/**
 * A large tenant made beside another tenant's calls (issue 40, point 4): `POST /__admin/tenants`
 * with BENCH_ROWS subscribers, connections and messages (100,000 by default), then
 * `PUT /__admin/state` of a state as large as the admin body limit takes, then that state saved as
 * a snapshot, the tenant reset, the snapshot restored and deleted, while another tenant reads one
 * subscriber every 10 ms; and (issue 53, point 5) eight concurrent `GET /__admin/state` of the
 * BENCH_ROWS tenant, each answer counted as it arrives. Prints how long each took and what the
 * other tenant's calls waited meanwhile (median, 99th percentile, longest), against the same calls
 * on an idle server.
 *
 *   npm run bench:tenant                     # a few minutes
 *   npm run bench:tenant -- --db             # the same with a store file (--db)
 *   npm run bench:tenant -- --redis          # the same on a redis-server of its own
 *   npm run bench:tenant -- --reads-only     # the tenant made, then only the eight reads
 *   npm run bench:tenant -- --strict         # answers checked against the documents (the default of novu-mock)
 *   npm run bench:tenant -- --build DIR      # another build (an older version's folder, built), for a side-by-side
 *   BENCH_ROWS=300000 npm run bench:tenant
 */
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { call, drainedGet, novuMock, onEveryCore, ROOT, sleep, start, stop } from './lib/processes.ts'
import { writeResults } from './lib/results.ts'
import { startRedis } from '../test/helpers/redis-server.ts'
import { percentile } from './lib/percentile.ts'

const ROWS = Number(process.env.BENCH_ROWS ?? 100_000)
/** An imported state within the 64 MiB admin body: connections are small, messages large. */
const IMPORT = { subscribers: 10_000, channelConnections: 100_000, messages: 5_000 }
const READ_EVERY_MS = 10
/** Readers of the whole state at once. */
const STATE_READERS = 8

type Answer = Awaited<ReturnType<typeof call>>

/** Another tenant's reads, one at a time every READ_EVERY_MS, until `done` resolves: their latencies in ms. */
async function readsDuring(port: number, done: Promise<unknown>): Promise<number[]> {
  let finished = false
  void done.finally(() => (finished = true))
  const latencies: number[] = []
  while (!finished) {
    const started = performance.now()
    const answer = await call(port, 'GET', '/v2/subscribers/demo-subscriber-1', 'bench-bystander')
    // A 408: it waited longer than node's request timeout (an old build's stall), a wait all the same.
    if (answer.status !== 200 && answer.status !== 408) throw new Error(`the bystander's read answered ${answer.status}`)
    if (answer.status === 408) console.log(`a bystander's read answered 408 after ${(performance.now() - started).toFixed(0)} ms`)
    latencies.push(performance.now() - started)
    await sleep(READ_EVERY_MS)
  }
  return latencies
}

const summary = (values: number[]) => ({ reads: values.length, p50: percentile(values, 50), p99: percentile(values, 99), max: Math.max(...values) })

/** How long `work` takes, its answer, and the bystander's latencies meanwhile. */
async function measured(port: number, work: () => Promise<Answer>, expected: number) {
  const started = performance.now()
  const doing = work()
  const reads = readsDuring(port, doing)
  const answer = await doing
  if (answer.status !== expected) throw new Error(`answered ${answer.status}: ${answer.text.slice(0, 300)}`)
  return { ms: performance.now() - started, text: answer.text, bystander: summary(await reads) }
}

/**
 * The readers' answers at once, each counted as it arrives: the MB one of them read, and how many
 * answered otherwise (an old build's 408s: they waited behind the others past node's request timeout).
 */
async function stateReads(port: number): Promise<Answer> {
  const answers = await Promise.all(Array.from({ length: STATE_READERS }, () => drainedGet(port, '/__admin/state', 'bench-large')))
  const read = answers.find((answer) => answer.status === 200)
  if (!read) return { status: answers[0]!.status, text: '' }
  const others = answers.filter((answer) => answer.status !== 200).map((answer) => answer.status)
  return { status: 200, text: `${(read.bytes / 2 ** 20).toFixed(0)} MB each${others.length > 0 ? `; ${others.length} answered ${[...new Set(others)].join(', ')}` : ''}` }
}

const argument = (name: string) => (process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : undefined)
const DB = process.argv.includes('--db')
const READS_ONLY = process.argv.includes('--reads-only')
const BUILD = argument('--build')
const CHECKED = process.argv.includes('--strict')
const redis = process.argv.includes('--redis') ? await onEveryCore(startRedis) : undefined
const stored = DB ? ['--db', join(mkdtempSync(join(tmpdir(), 'novu-mock-bench-')), 'state.db')] : redis ? ['--redis', redis.url] : []
const server = await start(novuMock('novu-mock', [...stored, ...(CHECKED ? ['--response-validation', 'strict'] : [])], BUILD ?? ROOT), { pinned: false })
const row = (name: string, ms: number | undefined, b: ReturnType<typeof summary>) =>
  `| ${name} | ${ms === undefined ? '–' : (ms / 1000).toFixed(1)} | ${b.reads} | ${b.p50.toFixed(1)} | ${b.p99.toFixed(1)} | ${b.max.toFixed(1)} |`
try {
  const { port } = server
  const idle = await measured(port, () => sleep(2000).then(() => ({ status: 200, text: '' })), 200)
  const create = await measured(port, () => call(port, 'POST', '/__admin/tenants', 'bench-admin', JSON.stringify({ apiKey: 'bench-large', subscribers: ROWS, channelConnections: ROWS, messages: ROWS })), 201)
  const reads = await measured(port, () => stateReads(port), 200)
  const rows = [
    row('idle server', undefined, idle.bystander),
    row(`POST /__admin/tenants, ${ROWS.toLocaleString('en')} of each`, create.ms, create.bystander),
    row(`${STATE_READERS} × GET /__admin/state at once, ${reads.text}`, reads.ms, reads.bystander),
  ]
  const results: Record<string, unknown> = { build: BUILD ?? 'this', checked: CHECKED, db: DB, redis: redis !== undefined, rows: ROWS, idle: idle.bystander, create, reads }
  if (!READS_ONLY) {
    await call(port, 'POST', '/__admin/tenants', 'bench-admin', JSON.stringify({ apiKey: 'bench-import-source', ...IMPORT }))
    // As bytes before the clock starts: encoding 50 MB of text while the bystander reads would hold this process, not the server, for ~60 ms.
    const state = Buffer.from((await call(port, 'GET', '/__admin/state', 'bench-import-source')).text)
    const put = await measured(port, () => call(port, 'PUT', '/__admin/state', 'bench-import', state), 200)
    const snapshotCalls = [
      ['POST /__admin/snapshots', () => call(port, 'POST', '/__admin/snapshots', 'bench-import', JSON.stringify({ name: 'imported' })), 201],
      ['POST /__admin/reset', () => call(port, 'POST', '/__admin/reset', 'bench-import'), 200],
      ['POST /__admin/snapshots/imported/restore', () => call(port, 'POST', '/__admin/snapshots/imported/restore', 'bench-import'), 200],
      ['DELETE /__admin/snapshots/imported', () => call(port, 'DELETE', '/__admin/snapshots/imported', 'bench-import'), 200],
    ] as const
    const snapshots: { name: string; ms: number; bystander: ReturnType<typeof summary> }[] = []
    for (const [name, work, expected] of snapshotCalls) snapshots.push({ name, ...(await measured(port, work, expected)) })
    const importMb = Buffer.byteLength(state) / 2 ** 20
    rows.push(row(`PUT /__admin/state, ${importMb.toFixed(0)} MB (${IMPORT.subscribers}/${IMPORT.channelConnections}/${IMPORT.messages})`, put.ms, put.bystander))
    for (const { name, ms, bystander } of snapshots) rows.push(row(`${name}, that state`, ms, bystander))
    Object.assign(results, { importRows: IMPORT, importMb, put: { ms: put.ms, bystander: put.bystander }, snapshots: snapshots.map(({ name, ms, bystander }) => ({ name, ms, bystander })) })
  }
  console.log(`| what | seconds | bystander reads | p50 ms | p99 ms | max ms |\n|---|---|---|---|---|---|\n${rows.join('\n')}`)
  console.log(`raw results: ${writeResults(results, '-large-tenant')}`)
} finally {
  await stop(server)
  await redis?.stop()
}
