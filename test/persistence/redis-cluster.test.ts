import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { tenantKeyBase } from '../../src/redis/redis-keys.ts'
import { startCli, type Instance } from '../helpers/cli.ts'
import { expectContract } from '../helpers/expect-contract.ts'
import { readState } from '../helpers/read-state.ts'
import { startRedisCluster, type RedisCluster } from '../helpers/redis-cluster.ts'
import { redisTestsSkipped, startRedis } from '../helpers/redis-server.ts'
import { freshTenant } from '../helpers/start-test-server.ts'
import { appendToken, fcmTokens, type Auth } from './helpers.ts'

/**
 * Two instances of the built CLI on a Redis Cluster of six nodes (three masters, three replicas),
 * both given the same one node (docs/behaviour.md §7): they find the cluster from it, and the
 * behaviours of several instances on one Redis hold there too, over tenants spread on every master.
 */
// Said once, by vitest.config.ts.
const skipped = redisTestsSkipped()

let cluster: RedisCluster
let a: Instance
let b: Instance

beforeAll(async () => {
  if (skipped) return
  cluster = await startRedisCluster()
  // A limit far above what the other tests spend on one tenant, low enough for its headers to count.
  const flags = ['--port', '0', '--log-level', 'silent', '--redis', cluster.url, '--rate-limit', '500/60']
  ;[a, b] = (await Promise.all([0, 1].map(() => startCli(flags)))) as [Instance, Instance]
}, 120_000)
afterAll(async () => {
  await Promise.all([a, b].filter(Boolean).map((served) => served.stop()))
  await cluster?.stop()
})

const apiKeyOf = (auth: Auth) => auth.Authorization.slice('ApiKey '.length)
const getAda = (url: string, auth: Auth) => request(url).get('/v2/subscribers/demo-subscriber-1').set(auth)

/** The master holding a tenant's keys (they share its hash tag), by port. */
const holderOf = async (auth: Auth) => (await cluster.holder(`${tenantKeyBase(apiKeyOf(auth))}meta`)).master.port

/**
 * Fresh tenants, `each` of them on every master of the cluster: drawn at random, twelve could all
 * fall on one or two of the three masters (about once in 40 runs).
 */
async function tenantsOnEveryMaster(each: number): Promise<Auth[]> {
  const byMaster = new Map<number, Auth[]>()
  for (let drawn = 0; byMaster.size < 3 || [...byMaster.values()].some((held) => held.length < each); drawn++) {
    if (drawn === 1000) throw new Error('1,000 tenants drawn without filling every master')
    const auth = freshTenant()
    const master = await holderOf(auth)
    const held = byMaster.get(master) ?? []
    if (held.length < each) byMaster.set(master, [...held, auth])
  }
  return [...byMaster.values()].flat()
}

describe.skipIf(skipped)('two instances on a Redis Cluster, found from one node', () => {
  it('names the mode in health: redis-cluster here, redis for a single Redis', async () => {
    for (const { url } of [a, b]) {
      const health = await request(url).get('/__admin/health')
      expect([health.status, health.body.status, health.body.store]).toEqual([200, 'ok', 'redis-cluster'])
      await expectContract('getHealth', health, 'admin')
    }
    const single = await startRedis()
    const served = await startCli(['--port', '0', '--log-level', 'silent', '--redis', single.url])
    try {
      expect((await request(served.url).get('/__admin/health')).body.store).toBe('redis')
    } finally {
      await served.stop()
      await single.stop()
    }
  })

  it('serves on the other instance what one acknowledged, for tenants held by every master', { timeout: 60_000 }, async () => {
    const tenants = await tenantsOnEveryMaster(4)
    for (const auth of tenants) expect((await appendToken(a.url, auth, 'written-on-a')).status).toBe(200)
    for (const auth of tenants) expect(await fcmTokens(b.url, auth)).toContain('written-on-a')
    const holders = await Promise.all(tenants.map(holderOf))
    expect(new Set(holders).size).toBe(3)
  })

  it('answers 200 to 200 concurrent appends spread over both instances, and loses none', { timeout: 60_000 }, async () => {
    const auth = freshTenant()
    // Four subscribers: a channel holds at most 100 tokens (docs/behaviour.md §2.1).
    const subscribers = (await readState(a.url, auth)).subscribers.slice(0, 4).map((s) => s.subscriberId)
    const sent = Array.from({ length: 200 }, (_, i) => ({ on: i % 2 ? a : b, token: `spread-${i}`, subscriberId: subscribers[i % 4]! }))
    const answers = await Promise.all(sent.map(({ on, token, subscriberId }) => appendToken(on.url, auth, token, subscriberId)))
    expect(answers.map((answer) => answer.status)).toEqual(sent.map(() => 200))
    for (const subscriberId of subscribers) {
      const tokens = await fcmTokens(a.url, auth, subscriberId)
      expect(tokens).toEqual(expect.arrayContaining(sent.filter((s) => s.subscriberId === subscriberId).map((s) => s.token)))
    }
  })

  it('replays on one instance an idempotency key first answered by the other', async () => {
    const auth = freshTenant()
    const keyed = (url: string) =>
      request(url).patch('/v1/subscribers/demo-subscriber-1/credentials').set(auth).set('idempotency-key', 'cluster-key').send({ providerId: 'fcm', credentials: { deviceTokens: ['keyed'] } })
    const first = await keyed(a.url)
    const replayed = await keyed(b.url)
    expect([first.status, replayed.status, replayed.headers['idempotency-replay']]).toEqual([200, 200, 'true'])
    expect(replayed.body).toEqual(first.body)
    await expectContract('upsertSubscriberCredentials', replayed)
  })

  it('counts a tenant\'s rate limit over both instances', async () => {
    const auth = freshTenant()
    // A frozen clock refills nothing (docs/behaviour.md §8), however long the calls take on a busy machine.
    expect((await request(a.url).put('/__admin/clock').set(auth).send({ now: '2025-03-01T12:00:00.000Z' })).status).toBe(200)
    // The bucket holds the limit and a tenth more (docs/behaviour.md §1.5): the headers show the limit until 50 are spent.
    await Promise.all(Array.from({ length: 50 }, (_, i) => getAda(i % 2 ? a.url : b.url, auth)))
    const answers = [await getAda(b.url, auth), await getAda(a.url, auth), await getAda(b.url, auth)]
    expect(answers.map((answer) => Number(answer.headers['ratelimit-remaining']))).toEqual([499, 498, 497])
  })

  it('journals calls and fires fault rules over both instances', async () => {
    const auth = freshTenant()
    const added = await request(a.url).post('/__admin/faults').set(auth).send({ match: { operationId: 'getSubscriber' }, respond: { status: 404 }, times: 1 })
    expect(added.status).toBe(201)
    const answers = [await getAda(b.url, auth), await getAda(a.url, auth), await getAda(b.url, auth)]
    expect(answers.map((answer) => answer.status)).toEqual([404, 200, 200])
    const listed = await request(a.url).get('/__admin/requests').set(auth)
    await expectContract('listRequests', listed, 'admin')
    expect(listed.body.requests.map((entry: { status: number }) => entry.status)).toEqual([404, 200, 200])
  })

  it('restores through one instance a snapshot saved through the other, and lists every tenant on both', async () => {
    const auth = freshTenant()
    expect((await appendToken(a.url, auth, 'before-snapshot')).status).toBe(200)
    expect((await request(a.url).post('/__admin/snapshots').set(auth).send({ name: 'shared' })).status).toBe(201)
    expect((await appendToken(b.url, auth, 'after-snapshot')).status).toBe(200)
    const restored = await request(b.url).post('/__admin/snapshots/shared/restore').set(auth)
    expect(restored.status).toBe(200)
    await expectContract('restoreSnapshot', restored, 'admin')
    const tokens = await fcmTokens(a.url, auth)
    expect([tokens.includes('before-snapshot'), tokens.includes('after-snapshot')]).toEqual([true, false])
    const listed = await request(b.url).get('/__admin/tenants')
    await expectContract('listTenants', listed, 'admin')
    expect(listed.body.tenants.map((tenant: { apiKey: string }) => tenant.apiKey)).toContain(apiKeyOf(auth))
    expect((await readState(b.url, auth)).subscribers.length).toBeGreaterThan(0)
  })
})
