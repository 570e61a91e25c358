/**
 * Scale, seeding and tenants (targets 4, 5 and 7 of issue 7), each printed as a number:
 * - seeding: `novu-mock --connections 1000000` from process start to its first answered request,
 *   and its peak RSS;
 * - page cost: the same list requests (filter combinations × cursor positions × orders) against a
 *   server with 1,000 connections and one with 1,000,000, interleaved, sequential on one
 *   keep-alive socket: the ratio of median latencies, worst case first;
 * - totalCount at 1,000,000 against a count of the same generated records, up to the cap;
 * - tenants: 1,000 API keys that each read once, and the server's RSS afterwards.
 *
 *   npm run bench:scale                        # ~1 min
 *   BENCH_SCALE_CONNECTIONS=200000 npm run bench:scale
 */
import { Agent, request } from 'node:http'
import { channelConnectionMaker } from '../src/seed/generators/channel-connection.ts'
import { seedState } from '../src/seed/generators/seed.ts'
import { DEFAULT_CONFIG } from '../src/app/config.ts'
import { TOTAL_COUNT_CAP } from '../src/store/memory/connections/connection-page.ts'
import { contextKeysKey, type ConnectionFilter } from '../src/store/memory/connections/connection-index.ts'
import type { StoredChannelConnection } from '../src/store/records.ts'
import { probe, rssMb, start, stop, type ServerDef } from './lib/processes.ts'

const LARGE = Number(process.env.BENCH_SCALE_CONNECTIONS ?? 1_000_000)
const SMALL = 1_000
const TENANTS = 1_000
const REQUESTS_PER_BLOCK = Number(process.env.BENCH_SCALE_REQUESTS ?? 100)
const BLOCKS = 3
const TARGETS = { pageRatio: 1.5, seedingMs: 10_000, seedingRssMb: 1024, tenantsRssMb: 512 }

const novu = (connections: number): ServerDef => ({
  name: `novu-mock --connections ${connections}`,
  command: (port) => [process.execPath, 'bin/novu-mock.js', '--port', String(port), '--log-level', 'warn', '--connections', String(connections)],
  ready: { path: '/__admin/health', ok: (status) => status === 200 },
})

// ------------------------------------------------------------------------------ the requests
/** The seed's own records, made again here: the first 1,000 exist in both servers alike. */
const { subscribers } = seedState({ seed: DEFAULT_CONFIG.seed, subscribers: DEFAULT_CONFIG.volumes.subscribers, channelConnections: 0, messages: 0 })
const makeConnection = channelConnectionMaker(DEFAULT_CONFIG.seed, subscribers.map((s) => s.subscriberId))
const made = makeConnection(500)
/** The generator always sets these fields; the stored type allows null for imported records. */
const sample = { ...made, subscriberId: made.subscriberId!, channel: made.channel!, providerId: made.providerId!, integrationIdentifier: made.integrationIdentifier! }

const FILTERS: Record<string, ConnectionFilter> = {
  none: {},
  subscriberId: { subscriberId: sample.subscriberId },
  channel: { channel: sample.channel },
  providerId: { providerId: sample.providerId },
  integrationIdentifier: { integrationIdentifier: sample.integrationIdentifier },
  contextKeys: { contextKeys: contextKeysKey(sample.contextKeys) },
  'subscriberId+channel': { subscriberId: sample.subscriberId, channel: sample.channel },
  'channel+providerId': { channel: sample.channel, providerId: sample.providerId },
  'subscriberId+providerId+contextKeys': { subscriberId: sample.subscriberId, providerId: sample.providerId, contextKeys: contextKeysKey(sample.contextKeys) },
  'no match (chat+fcm)': { channel: 'chat', providerId: 'fcm' },
}
/** Cursors at connections spread over the first thousand: random positions in either order. */
const CURSORS: Record<string, string> = {
  none: '',
  'after #100': `after=${makeConnection(100)._id}`,
  'after #500': `after=${sample._id}&includeCursor=true`,
  'after #900': `after=${makeConnection(900)._id}`,
  'before #300': `before=${makeConnection(300)._id}`,
}
const ORDERS = { 'createdAt DESC': 'orderBy=createdAt&orderDirection=DESC', 'updatedAt ASC': 'orderBy=updatedAt&orderDirection=ASC' }

function queryOf(filter: ConnectionFilter): string {
  const parts = Object.entries(filter).flatMap(([field, value]) =>
    field === 'contextKeys' ? (value === '' ? ['contextKeys='] : value!.split('\u0000').map((key) => `contextKeys=${encodeURIComponent(key)}`)) : [`${field}=${encodeURIComponent(value!)}`],
  )
  return parts.join('&')
}

interface Case {
  name: string
  path: string
}
const CASES: Case[] = Object.entries(FILTERS).flatMap(([filterName, filter]) =>
  Object.entries(CURSORS).flatMap(([cursorName, cursor]) =>
    Object.entries(ORDERS).map(([orderName, order]) => ({
      name: `${filterName} | ${cursorName} | ${orderName}`,
      path: `/v1/channel-connections?limit=10&${[order, cursor, queryOf(filter)].filter(Boolean).join('&')}`,
    })),
  ),
)

// ------------------------------------------------------------------------------ measuring
const agent = new Agent({ keepAlive: true, maxSockets: 1 })

/** One GET on the keep-alive socket; again on a fresh one if the server had closed the idle socket. */
async function get(port: number, path: string, apiKey = 'bench'): Promise<{ status: number; body: string; ms: number }> {
  try {
    return await getOnce(port, path, apiKey)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ECONNRESET') throw error
    return getOnce(port, path, apiKey)
  }
}

function getOnce(port: number, path: string, apiKey: string): Promise<{ status: number; body: string; ms: number }> {
  return new Promise((resolve, reject) => {
    const started = performance.now()
    const req = request({ host: '127.0.0.1', port, path, agent, headers: { Authorization: `ApiKey ${apiKey}` } }, (res) => {
      let body = ''
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => (body += chunk))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, ms: performance.now() - started }))
    })
    req.on('error', reject)
    req.end()
  })
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2
}

async function latencies(port: number, path: string, count: number): Promise<number[]> {
  const times: number[] = []
  for (let i = 0; i < count; i++) {
    const answer = await get(port, path)
    if (answer.status !== 200) throw new Error(`${path}: ${answer.status} ${answer.body.slice(0, 300)}`)
    times.push(answer.ms)
  }
  return times
}

/** Each case in blocks alternating between the servers, so drift on the machine hits both. */
async function pageCosts(small: number, large: number) {
  const results = []
  for (const { name, path } of CASES) {
    const times = { small: [] as number[], large: [] as number[] }
    await latencies(small, path, 20)
    await latencies(large, path, 20)
    for (let block = 0; block < BLOCKS; block++) {
      times.small.push(...(await latencies(small, path, REQUESTS_PER_BLOCK)))
      times.large.push(...(await latencies(large, path, REQUESTS_PER_BLOCK)))
    }
    const [smallMs, largeMs] = [median(times.small), median(times.large)]
    results.push({ name, smallMs, largeMs, ratio: largeMs / smallMs })
  }
  return results.sort((a, b) => b.ratio - a.ratio)
}

/** Every filter's totalCount from the large server against a count of the generated records. */
async function totalCountErrors(port: number): Promise<string[]> {
  const expected = Object.fromEntries(Object.keys(FILTERS).map((name) => [name, 0]))
  const matches = (connection: StoredChannelConnection, filter: ConnectionFilter) =>
    Object.entries(filter).every(([field, value]) => (field === 'contextKeys' ? contextKeysKey(connection.contextKeys) : connection[field as keyof StoredChannelConnection]) === value)
  for (let i = 0; i < LARGE; i++) {
    const connection = makeConnection(i)
    for (const [name, filter] of Object.entries(FILTERS)) if (matches(connection, filter)) expected[name]!++
  }
  const errors: string[] = []
  for (const [name, filter] of Object.entries(FILTERS)) {
    const { body } = await get(port, `/v1/channel-connections?limit=1&${queryOf(filter)}`)
    const { totalCount, totalCountCapped } = JSON.parse(body) as { totalCount: number; totalCountCapped: boolean }
    const want = expected[name]!
    if (totalCount !== Math.min(want, TOTAL_COUNT_CAP) || totalCountCapped !== want > TOTAL_COUNT_CAP) {
      errors.push(`${name}: totalCount ${totalCount} (capped ${totalCountCapped}), expected ${want}`)
    }
  }
  return errors
}

async function tenantsRss(): Promise<{ beforeMb: number | undefined; afterMb: number | undefined }> {
  const running = await start(novu(DEFAULT_CONFIG.volumes.channelConnections))
  const beforeMb = rssMb(running.child.pid)
  for (let i = 0; i < TENANTS; i++) {
    const answer = await get(running.port, '/v2/subscribers/demo-subscriber-1', `tenant-${i}`)
    if (answer.status !== 200) throw new Error(`tenant ${i}: ${answer.status} ${answer.body.slice(0, 300)}`)
  }
  const health = await probe(running.port, 'GET', '/__admin/health')
  const afterMb = rssMb(running.child.pid)
  await stop(running)
  if (health?.status !== 200) throw new Error(`health after ${TENANTS} tenants: ${health?.status}`)
  return { beforeMb, afterMb }
}

// ------------------------------------------------------------------------------ run
const verdict = (ok: boolean) => (ok ? 'met' : 'NOT met')
console.log(`scale bench: ${SMALL} vs ${LARGE} connections, ${CASES.length} list requests × ${BLOCKS} blocks of ${REQUESTS_PER_BLOCK}`)

const large = await start(novu(LARGE))
const seedingPeakMb = rssMb(large.child.pid, 'VmHWM')
const firstList = await get(large.port, '/v1/channel-connections')
console.log(`seeding ${LARGE} connections: ${Math.round(large.startupMs)} ms to the first answered request, peak RSS ${seedingPeakMb} MB; first list after: ${firstList.ms.toFixed(0)} ms`)
const small = await start(novu(SMALL))
for (const port of [small.port, large.port]) {
  const check = await get(port, `/v1/channel-connections?limit=1&includeCursor=true&after=${sample._id}&subscriberId=${sample.subscriberId}`)
  if (!check.body.includes(sample._id)) throw new Error(`the bench's connection ${sample._id} is not in the server on ${port}: its seed differs`)
}
const costs = await pageCosts(small.port, large.port)
const countErrors = await totalCountErrors(large.port)
await stop(small)
await stop(large)
const tenants = await tenantsRss()

console.log(`\npage cost at ${LARGE} / at ${SMALL} connections (median ms per request, worst 8 of ${costs.length})`)
for (const c of costs.slice(0, 8)) console.log(`  ${c.name.padEnd(62)} ${c.smallMs.toFixed(3)}  ${c.largeMs.toFixed(3)}  ${c.ratio.toFixed(2)}x`)
console.log(`  median ratio over all cases: ${median(costs.map((c) => c.ratio)).toFixed(2)}x`)
if (countErrors.length) console.log(`totalCount errors:\n  ${countErrors.join('\n  ')}`)

const worstRatio = costs[0]!.ratio
console.log('\ntargets (novu-mock)')
const rows: [string, string, boolean][] = [
  [`4. list page at ${LARGE} <= ${TARGETS.pageRatio}x at ${SMALL} connections (worst ratio)`, worstRatio.toFixed(2), worstRatio <= TARGETS.pageRatio],
  [`4. totalCount correct at ${LARGE} for ${Object.keys(FILTERS).length} filters (errors)`, String(countErrors.length), countErrors.length === 0],
  [`5. seeding ${LARGE} connections < 10 s (ms to first answer)`, large.startupMs.toFixed(0), large.startupMs < TARGETS.seedingMs],
  [`5. seeding peak RSS < 1 GB (MB)`, String(seedingPeakMb), (seedingPeakMb ?? Infinity) < TARGETS.seedingRssMb],
  [`7. ${TENANTS} tenants that each read once < 512 MB RSS (MB; ${tenants.beforeMb} MB before)`, String(tenants.afterMb), (tenants.afterMb ?? Infinity) < TARGETS.tenantsRssMb],
]
for (const [name, value, ok] of rows) console.log(`  ${name.padEnd(76)} ${value.padStart(8)}  ${verdict(ok)}`)
agent.destroy()
