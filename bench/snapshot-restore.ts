/**
 * Snapshot and restore of a tenant with 100,000 channel connections, over HTTP, on this machine.
 * A script, not a test: it prints the figures (median of several rounds) and the target.
 */
import { createMockServer } from '../src/app/create-mock-server.ts'

const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 100_000)
const ROUNDS = 7
const TARGET_MS = 200

const seeding = performance.now()
const server = await createMockServer({ logLevel: 'silent', volumes: { subscribers: 50, channelConnections: CONNECTIONS } })
console.log(`seeded ${CONNECTIONS} connections in ${Math.round(performance.now() - seeding)} ms`)
const headers = { Authorization: 'ApiKey bench', 'Content-Type': 'application/json' }
const call = async (method: string, path: string, body?: unknown) => {
  const res = await fetch(`${server.url}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) })
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`)
  await res.arrayBuffer()
}

const timings: number[] = []
for (let round = 0; round < ROUNDS; round++) {
  await call('POST', '/v1/subscribers/demo-subscriber-1/messages/mark-as', { messageId: '64f200000000000000000001', markAs: round % 2 ? 'read' : 'unread' })
  const started = performance.now()
  await call('POST', '/__admin/snapshots', { name: `round-${round}` })
  await call('POST', `/__admin/snapshots/round-${round}/restore`)
  timings.push(performance.now() - started)
}
await server.close()
const median = [...timings].sort((a, b) => a - b)[Math.floor(ROUNDS / 2)]!
console.log(`snapshot + restore with ${CONNECTIONS} connections: median ${median.toFixed(1)} ms over ${ROUNDS} rounds (target < ${TARGET_MS} ms): ${median < TARGET_MS ? 'met' : 'NOT met'}`)
