/**
 * `npm run bench:redis -- --cluster` (issue 46), printed as numbers, not checked:
 * - each of the five operations at 50 connections for BENCH_REDIS_SECONDS (5) on one instance on
 *   a single Redis (no replica: nothing to wait for), and on a six-node Redis Cluster (three
 *   masters, three replicas) with the default --redis-wait-replicas 1 and with 0: answers per
 *   second and 99th percentile, side by side, the three taking turns on each operation (a shared
 *   machine drifts: adjacent runs compare best);
 * - the time from a master's SIGKILL to the first write acknowledged again on a tenant it held,
 *   writes sent one after the other (cluster-node-timeout 2 s).
 * It starts its own redis-server processes (Debian's) on free ports.
 */
import { tenantKeyBase } from '../src/redis/redis-keys.ts'
import { startRedisCluster, type RedisCluster } from '../test/helpers/redis-cluster.ts'
import { startRedis } from '../test/helpers/redis-server.ts'
import { loadAt50, OPERATIONS } from './lib/operations.ts'
import { HEADERS, novuMock, onEveryCore, probe, start, stop } from './lib/processes.ts'

const SECONDS = Number(process.env.BENCH_REDIS_SECONDS ?? 5)

type Result = Awaited<ReturnType<typeof loadAt50>>

/** Each operation on each of the instances started with `configurations`, in turn: a row per operation. */
async function perOperation(configurations: Record<string, string[]>): Promise<Result[][]> {
  const instances = await Promise.all(Object.entries(configurations).map(([name, args]) => start(novuMock(name, args), { pinned: false })))
  const rows: Result[][] = []
  for (const op of OPERATIONS) {
    const row: Result[] = []
    for (const running of instances) row.push(await loadAt50(running.port, op, SECONDS))
    rows.push(row)
  }
  await Promise.all(instances.map(stop))
  return rows
}

/** Milliseconds from the SIGKILL of the master holding a tenant to the first write of it acknowledged again. */
async function failoverMs(cluster: RedisCluster): Promise<{ ms: number; refused: number }> {
  const running = await start(novuMock('novu-mock on the cluster', ['--redis', cluster.url]), { pinned: false })
  const headers = { ...HEADERS, Authorization: 'ApiKey failover-bench' }
  const write = (token: string) => probe(running.port, 'PATCH', '/v1/subscribers/demo-subscriber-1/credentials', { providerId: 'fcm', credentials: { deviceTokens: [token] } }, headers)
  if ((await write('before'))?.status !== 200) throw new Error('the first write was refused')
  const { master } = await cluster.holder(`${tenantKeyBase('failover-bench')}meta`)
  cluster.signal(master.port, 'SIGKILL')
  const killed = performance.now()
  let refused = 0
  for (let i = 0; (await write(`after-${i}`))?.status !== 200; i++) refused++
  const ms = performance.now() - killed
  await stop(running)
  return { ms, refused }
}

const cell = ({ rps, p99 }: Result) => `${rps.toLocaleString('en')} (${p99})`.padEnd(20)

const single = await onEveryCore(startRedis)
const cluster = await onEveryCore(startRedisCluster)
try {
  const configurations = {
    'single Redis': ['--redis', single.url],
    'cluster, wait 1': ['--redis', cluster.url],
    'cluster, wait 0': ['--redis', cluster.url, '--redis-wait-replicas', '0'],
  }
  const rows = await perOperation(configurations)
  console.log(`\nEach operation at 50 connections, ${SECONDS} s: answers/s (p99 ms)`)
  console.log(`${''.padEnd(34)}${Object.keys(configurations).map((name) => name.padEnd(20)).join('')}`)
  OPERATIONS.forEach((op, i) => console.log(`${op.name.padEnd(34)}${rows[i]!.map(cell).join('')}`))
  const { ms, refused } = await failoverMs(cluster)
  console.log(`\nA master SIGKILLed: first write acknowledged again after ${Math.round(ms)} ms (${refused} answered 503 meanwhile)`)
} finally {
  await cluster.stop()
  await single.stop()
}
