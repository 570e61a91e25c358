import autocannon from 'autocannon'
import { HEADERS, probe } from './processes.ts'

/** The five operations as the benches call them: every call of a write really writes. */
const MESSAGE_IDS = Array.from({ length: 10 }, (_, i) => `64f2000000000000000000${String(i + 1).padStart(2, '0')}`)
export interface Operation {
  name: string
  method: 'GET' | 'POST' | 'PATCH'
  /** Prefix the ceiling server routes on. */
  prefix: string
  path(n: number): string
  body?(n: number): unknown
}
export const OPERATIONS: Operation[] = [
  {
    // A new webhook URL per request: every call really writes, and the subscriber keeps its size
    // (appending a new device token per call would grow the answer without bound).
    name: 'upsertSubscriberCredentials',
    method: 'PATCH',
    prefix: '/v1/subscribers/demo-subscriber-1/credentials',
    path: () => '/v1/subscribers/demo-subscriber-1/credentials',
    body: (n) => ({ providerId: 'slack', credentials: { webhookUrl: `https://hooks.slack.example.com/services/bench/${n}` } }),
  },
  { name: 'getSubscriber', method: 'GET', prefix: '/v2/subscribers/', path: () => '/v2/subscribers/demo-subscriber-1' },
  {
    // Alternates the primary email integration: every call changes it.
    name: 'setPrimaryIntegration',
    method: 'POST',
    prefix: '/v1/integrations/',
    path: (n) => `/v1/integrations/64f10000000000000000000${n % 2 === 0 ? 2 : 1}/set-primary`,
  },
  { name: 'listChannelConnections', method: 'GET', prefix: '/v1/channel-connections', path: () => '/v1/channel-connections?limit=10' },
  {
    // Each of the 10 messages flips between read and unread on every call that names it.
    name: 'markMessagesAs',
    method: 'POST',
    prefix: '/v1/subscribers/demo-subscriber-1/messages/mark-as',
    path: () => '/v1/subscribers/demo-subscriber-1/messages/mark-as',
    body: (n) => ({ messageId: MESSAGE_IDS[n % 10], markAs: Math.floor(n / 10) % 2 === 0 ? 'read' : 'unread' }),
  },
]
export const WRITE_OPERATIONS = OPERATIONS.filter((op) => op.method !== 'GET')

/**
 * `op` as autocannon sends it, each call numbered by `counter`. With `tenants`, the calls go to
 * tenants `bench-0`… in turn, each tenant's own calls numbered as one tenant's would be.
 */
const KEYED = process.env.BENCH_KEYED === '1'
/** Keys of one run differ from another's on the same Redis. */
const RUN = Date.now().toString(36)

export function requestOf(op: Operation, counter: { n: number }, tenants?: number): autocannon.Request {
  return {
    method: op.method,
    path: op.path(0),
    setupRequest: (req) => {
      const call = counter.n++
      const n = tenants === undefined ? call : Math.floor(call / tenants)
      const body = op.body?.(n)
      // A new object each time: autocannon writes the body's Content-Length into it.
      const headers: Record<string, string> = tenants === undefined ? { ...HEADERS } : { ...HEADERS, Authorization: `ApiKey bench-${call % tenants}` }
      // BENCH_KEYED=1: each write with a fresh idempotency key, as the official SDK sends (docs/behaviour.md §4).
      if (KEYED && op.method !== 'GET') headers['idempotency-key'] = `bench-${RUN}-${call}`
      return { ...req, path: op.path(n), headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) }
    },
  }
}

/**
 * `tenants` tenants writing in turn, one write at a time, each tenant after the other, `rounds`
 * times: how long each write took, and how many were refused. A tenant's first write is its first
 * change over the seed.
 */
export async function writeTenantsInTurn(port: number, tenants: number, rounds: number, headers: (tenant: number) => Record<string, string>) {
  const ms: number[] = []
  let refused = 0
  for (let i = 0; i < rounds; i++) {
    for (let tenant = 0; tenant < tenants; tenant++) {
      const { method, path, body } = writeInTurn(tenant, i)
      const started = performance.now()
      const answer = await probe(port, method, path, body, headers(tenant))
      ms.push(performance.now() - started)
      if (!answer || answer.status >= 300) refused++
    }
  }
  return { ms, refused }
}

/** The three writing operations in turn (credentials, mark-as, set-primary): the `i`th write of a tenant. */
function writeInTurn(tenant: number, i: number): { method: string; path: string; body?: unknown } {
  switch (i % 3) {
    case 0:
      return { method: 'PATCH', path: '/v1/subscribers/demo-subscriber-1/credentials', body: { providerId: 'fcm', credentials: { deviceTokens: [`t${tenant}-${i}`] } } }
    case 1:
      return { method: 'POST', path: '/v1/subscribers/demo-subscriber-1/messages/mark-as', body: { messageId: '64f200000000000000000001', markAs: i % 2 ? 'read' : 'unread' } }
    default:
      return { method: 'POST', path: `/v1/integrations/${i % 2 ? '64f100000000000000000002' : '64f100000000000000000001'}/set-primary` }
  }
}

/** One operation at 50 connections for `seconds` (spread over `tenants` tenants, or all of one): answers per second and latencies (ms). */
export async function loadAt50(port: number, op: Operation, seconds: number, tenants?: number): Promise<{ rps: number; p50: number; p99: number; non2xx: number }> {
  const result = await autocannon({ url: `http://127.0.0.1:${port}`, connections: 50, duration: seconds, headers: HEADERS, requests: [requestOf(op, { n: 0 }, tenants)] })
  return { rps: Math.round(result['2xx'] / result.duration), p50: result.latency.p50, p99: result.latency.p99, non2xx: result.non2xx }
}
