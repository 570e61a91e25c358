/**
 * --redis against memory (issue 35), printed as numbers, not checked:
 * - each of the five operations at 50 connections for BENCH_REDIS_SECONDS (5) on one instance in
 *   memory and one on Redis: answers per second, median and 99th percentile;
 * - 20 tenants of BENCH_REDIS_CONNECTIONS (200,000) connections each writing in turn through
 *   Redis: median and slowest write, and how many were refused;
 * - a page of the connection list (limit 10) at BENCH_REDIS_LARGE (1,000,000) connections against
 *   1,000, on Redis, the tenant written first: median of 200 pages each, and their ratio.
 *
 * It starts its own redis-server (Debian's) on a free port.
 *   npm run bench:redis
 *   npm run bench:redis -- --cluster   # a single Redis against a Redis Cluster, and a failover (redis-cluster.ts)
 *   BENCH_REDIS_CONNECTIONS=20000 BENCH_REDIS_LARGE=100000 npm run bench:redis   # quicker
 *   npm run bench:redis -- --operations   # the five operations alone, with their Redis / memory ratios
 *   BENCH_KEYED=1 npm run bench:redis -- --operations   # the same, each write with a fresh idempotency key
 */
import { startRedis } from '../test/helpers/redis-server.ts'
import { loadAt50, OPERATIONS, writeTenantsInTurn } from './lib/operations.ts'
import { cpuMs, HEADERS, novuMock, onEveryCore, probe, start, stop } from './lib/processes.ts'
import { readFileSync } from 'node:fs'
import { median } from './lib/percentile.ts'

if (process.argv.includes('--cluster')) {
  await import('./redis-cluster.ts')
  process.exit(0)
}

const SECONDS = Number(process.env.BENCH_REDIS_SECONDS ?? 5)
const CONNECTIONS = Number(process.env.BENCH_REDIS_CONNECTIONS ?? 200_000)
const LARGE = Number(process.env.BENCH_REDIS_LARGE ?? 1_000_000)
const TENANTS = 20
const WRITES_PER_TENANT = 50
const PAGES = 200

const round = (n: number) => Math.round(n * 100) / 100

/** The write system calls (write, writev) a process has made; NaN without /proc. */
function writeCalls(pid: number | undefined): number {
  try {
    return Number(/syscw: (\d+)/.exec(readFileSync(`/proc/${pid}/io`, 'utf8'))![1])
  } catch {
    return Number.NaN
  }
}

/**
 * What the server and Redis spend per answer, which the machine's other work moves far less than
 * answers per second: CPU time (µs) and write system calls, each process's.
 */
const perAnswer = (pids: (number | undefined)[]) => {
  const before = pids.map((pid) => [cpuMs(pid), writeCalls(pid)])
  return (answers: number) =>
    pids.map((pid, i) => `${Math.round(((cpuMs(pid) - before[i]![0]!) * 1000) / answers)} µs ${round((writeCalls(pid) - before[i]![1]!) / answers)} writes`).join(' / ')
}

async function perOperation(redisUrl: string, redisPid: number): Promise<void> {
  console.log(`\nEach operation at 50 connections, ${SECONDS} s (answers/s, p50 ms, p99 ms, non-2xx; per answer, the CPU and writes of the load generator (this process) / the server / Redis):`)
  const rps = new Map<string, number[]>()
  for (const [name, args] of [
    ['in memory', []],
    ['on Redis', ['--redis', redisUrl]],
  ] as const) {
    const running = await start(novuMock(name, [...args]), { pinned: false })
    for (const op of OPERATIONS) {
      // The three share the machine's cores unpinned: the sum of their CPU per answer is what bounds answers/s.
      const measured = perAnswer([process.pid, running.child.pid, ...(args.length > 0 ? [redisPid] : [])])
      const result = await loadAt50(running.port, op, SECONDS)
      rps.set(op.name, [...(rps.get(op.name) ?? []), result.rps])
      const costs = measured(result.rps * SECONDS)
      console.log(`  ${name.padEnd(10)} ${op.name.padEnd(30)} ${String(result.rps).padStart(6)}/s  p50 ${result.p50}  p99 ${result.p99}  non-2xx ${result.non2xx}  ${costs}`)
    }
    await stop(running)
  }
  for (const [op, [memory, redis]] of rps) console.log(`  Redis / memory ${op.padEnd(30)} ${round(redis! / memory!)}×`)
}

const tenantHeaders = (tenant: string) => ({ ...HEADERS, Authorization: `ApiKey ${tenant}` })

async function writesAtSize(redisUrl: string): Promise<void> {
  const running = await start(novuMock('novu-mock --redis', ['--redis', redisUrl, '--connections', String(CONNECTIONS)]), { pinned: false })
  const { ms, refused } = await writeTenantsInTurn(running.port, TENANTS, WRITES_PER_TENANT, (tenant) => tenantHeaders(`redis-bench-${tenant}`))
  await stop(running)
  console.log(`\n${TENANTS} tenants of ${CONNECTIONS.toLocaleString('en')} connections writing in turn through Redis, ${ms.length} writes:`)
  console.log(`  median ${round(median(ms))} ms, slowest ${round(Math.max(...ms))} ms, refused ${refused}`)
}

/** Median time of a page of 10 connections for a written tenant of `connections` connections. */
async function pageAt(redisUrl: string, connections: number): Promise<number> {
  const running = await start(novuMock(`novu-mock --redis --connections ${connections}`, ['--redis', redisUrl, '--connections', String(connections)]), { pinned: false })
  const headers = tenantHeaders(`page-bench-${connections}`)
  await probe(running.port, 'PATCH', '/v1/subscribers/demo-subscriber-1/credentials', { providerId: 'fcm', credentials: { deviceTokens: ['written'] } }, headers)
  const ms: number[] = []
  for (let i = 0; i < PAGES; i++) {
    const started = performance.now()
    const answer = await probe(running.port, 'GET', '/v1/channel-connections?limit=10', undefined, headers)
    if (answer?.status !== 200) throw new Error(`a page answered ${answer?.status}`)
    ms.push(performance.now() - started)
  }
  await stop(running)
  return median(ms)
}

const redis = await onEveryCore(startRedis)
/** Empties Redis: an instance started with other seed options than those recorded would refuse to start. */
const emptied = async () => {
  const { Redis } = await import('ioredis')
  const client = new Redis(redis.url)
  await client.flushall()
  client.disconnect()
  return redis.url
}
const redisPid = async () => {
  const { Redis } = await import('ioredis')
  const client = new Redis(redis.url)
  const pid = Number(/process_id:(\d+)/.exec(await client.info('server'))![1])
  client.disconnect()
  return pid
}
try {
  await perOperation(await emptied(), await redisPid())
  if (!process.argv.includes('--operations')) {
    await writesAtSize(await emptied())
    const small = await pageAt(await emptied(), 1_000)
    const large = await pageAt(await emptied(), LARGE)
    console.log(`\nA page of 10 connections on Redis: ${round(small)} ms at 1,000, ${round(large)} ms at ${LARGE.toLocaleString('en')}: ${round(large / small)}×`)
  }
} finally {
  await redis.stop()
}
