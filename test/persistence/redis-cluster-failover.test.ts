import { Redis } from 'ioredis'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { tenantKeyBase } from '../../src/redis/redis-keys.ts'
import { redisInstances } from '../helpers/cli.ts'
import { expectContract } from '../helpers/expect-contract.ts'
import { readState } from '../helpers/read-state.ts'
import { eventually, startRedisCluster, type ClusterNode, type RedisCluster } from '../helpers/redis-cluster.ts'
import { redisTestsSkipped } from '../helpers/redis-server.ts'
import { freshTenant } from '../helpers/start-test-server.ts'
import { appendToken, fcmTokens, type Auth } from './helpers.ts'

/**
 * A master of a six-node Redis Cluster SIGKILLed under the writes of two instances of the built
 * CLI (docs/behaviour.md §7): calls answer 200 or 503 with Retry-After meanwhile, writes are
 * acknowledged again once its replica is promoted, and no acknowledged write is lost, because a
 * write is acknowledged only once the replica has it (--redis-wait-replicas). Each test takes a
 * master of its own, so the three run on one cluster, one after the other.
 */
// Said once, by vitest.config.ts.
const skipped = redisTestsSkipped()

let cluster: RedisCluster
const instances = redisInstances()
/** Masters a test has killed, or is about to: the next test takes another. */
const used = new Set<number>()

const instance = instances.start

beforeAll(async () => {
  if (skipped) return
  cluster = await startRedisCluster()
}, 120_000)
afterAll(async () => {
  await instances.stopAll()
  await cluster?.stop()
})

const keyOf = (auth: Auth) => tenantKeyBase(auth.Authorization.slice('ApiKey '.length))

/** `count` new tenants held by one master no test has taken yet, with that master and its replica. */
async function tenantsOnAFreshMaster(count: number): Promise<{ tenants: Auth[]; master: ClusterNode; replica: ClusterNode }> {
  const first = freshTenant()
  const { master, replica } = await cluster.holder(`${keyOf(first)}meta`)
  if (used.has(master.port) || replica === undefined) return tenantsOnAFreshMaster(count)
  used.add(master.port)
  const tenants = [first]
  while (tenants.length < count) {
    const auth = freshTenant()
    if ((await cluster.holder(`${keyOf(auth)}meta`)).master.port === master.port) tenants.push(auth)
  }
  return { tenants, master, replica }
}

/** Resolves once the replica at `port` is the master of its slots, as the cluster sees it. */
const promoted = (port: number) =>
  eventually(async () => (await cluster.nodes()).some((node) => node.port === port && node.role === 'master' && !node.failed && node.slots.length > 0), 60_000, `the replica at ${port} was not promoted`)

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

describe.skipIf(skipped)('a master of a Redis Cluster killed under writes', () => {
  it('answers 503 with Retry-After during the failover, takes writes again once the replica is promoted, and loses no acknowledged one', { timeout: 120_000 }, async () => {
    const { tenants, master, replica } = await tenantsOnAFreshMaster(4)
    // Both started with the node that dies: they find its successor by themselves.
    const seed = `redis://127.0.0.1:${master.port}`
    const [a, b] = await Promise.all([instance(seed), instance(seed)])
    const acknowledged: { auth: Auth; token: string; subscriberId: string; at: number }[] = []
    const refused: { status: number; retryAfter: unknown; ms: number }[] = []
    let killedAt = Infinity
    // Eight subscribers: a channel holds at most 100 tokens (docs/behaviour.md §2.1).
    const subscribers = (await readState(a.url, tenants[0]!)).subscribers.slice(0, 8).map((s) => s.subscriberId)
    const writer = async (auth: Auth, w: number) => {
      for (let i = 0; acknowledged.filter((write) => write.auth === auth && write.at > killedAt).length < 5; i++) {
        const write = { auth, token: `failover-${w}-${i}`, subscriberId: subscribers[i % 8]! }
        const sent = Date.now()
        const answer = await appendToken((i % 2 ? a : b).url, auth, write.token, write.subscriberId)
        if (answer.status === 200) acknowledged.push({ ...write, at: Date.now() })
        else {
          refused.push({ status: answer.status, retryAfter: answer.headers['retry-after'], ms: Date.now() - sent })
          await expectContract('upsertSubscriberCredentials', answer)
          await sleep(100)
        }
      }
    }
    const writers = tenants.map((auth, w) => writer(auth, w))
    await sleep(1000)
    cluster.signal(master.port, 'SIGKILL')
    killedAt = Date.now()
    await Promise.all(writers)
    await promoted(replica.port)
    const recovered = Math.max(...tenants.map((auth) => acknowledged.find((write) => write.auth === auth && write.at > killedAt)!.at)) - killedAt
    // The cluster's node timeout is 2 s: a replica is promoted within a few more; 30 s is a generous bound.
    expect(recovered).toBeLessThan(30_000)
    expect(acknowledged.filter((write) => write.at < killedAt).length).toBeGreaterThan(0)
    // Never a 500, and never a hang past the 5 s command timeout (with a busy machine's margin).
    expect(refused.filter(({ status, retryAfter }) => status !== 503 || retryAfter !== '1')).toEqual([])
    expect(refused.filter(({ ms }) => ms > 10_000)).toEqual([])
    for (const on of [a, b]) {
      for (const auth of tenants) {
        for (const subscriberId of new Set(acknowledged.filter((write) => write.auth === auth).map((write) => write.subscriberId))) {
          const tokens = await fcmTokens(on.url, auth, subscriberId)
          expect(tokens).toEqual(expect.arrayContaining(acknowledged.filter((write) => write.auth === auth && write.subscriberId === subscriberId).map((write) => write.token)))
        }
      }
    }
  })

  /**
   * The replica stopped, a write, its master killed, the replica resumed and promoted: the write
   * never reached it. The master's replication stream is held back by a large value written
   * first: a stopped replica's socket still takes what fits in the kernel's buffers, which it
   * would read on resuming, so the write must lie beyond them, in the master's own output buffer,
   * which dies with it.
   */
  async function writeWhileReplicaStopped(...flags: string[]) {
    const { tenants: [auth], master, replica } = await tenantsOnAFreshMaster(1)
    const served = await instance(`redis://127.0.0.1:${master.port}`, ...flags)
    expect((await appendToken(served.url, auth!, 'before')).status).toBe(200)
    await cluster.replicated(master.port, replica.port)
    cluster.signal(replica.port, 'SIGSTOP')
    const direct = new Redis(master.port, '127.0.0.1')
    try {
      await direct.set(`${keyOf(auth!)}filler`, 'x'.repeat(64 * 2 ** 20))
    } finally {
      direct.disconnect()
    }
    const write = await appendToken(served.url, auth!, 'while-replica-stopped')
    cluster.signal(master.port, 'SIGKILL')
    cluster.signal(replica.port, 'SIGCONT')
    await promoted(replica.port)
    let tokens: string[] = []
    await eventually(async () => ((tokens = await fcmTokens(served.url, auth!)), true), 60_000, 'the tenant was not served again')
    return { write, tokens }
  }

  it('loses an acknowledged write with --redis-wait-replicas 0: the test above can fail', { timeout: 120_000 }, async () => {
    const { write, tokens } = await writeWhileReplicaStopped('--redis-wait-replicas', '0')
    expect(write.status).toBe(200)
    expect(tokens).toContain('before')
    expect(tokens).not.toContain('while-replica-stopped')
  })

  it('refuses that write with 503 and Retry-After instead, with the wait on (the default)', { timeout: 120_000 }, async () => {
    const { write, tokens } = await writeWhileReplicaStopped()
    expect([write.status, write.headers['retry-after']]).toEqual([503, '1'])
    await expectContract('upsertSubscriberCredentials', write)
    expect(tokens).toContain('before')
    expect(tokens).not.toContain('while-replica-stopped')
  })
})
