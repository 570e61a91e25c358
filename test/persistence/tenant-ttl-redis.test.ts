import request from 'supertest'
import { afterEach, describe, expect, it } from 'vitest'
import { connectRedis, type RedisClient } from '../../src/redis/redis-connection.ts'
import { KEY_PREFIX, tenantKeyBase } from '../../src/redis/redis-keys.ts'
import { redisInstances } from '../helpers/cli.ts'
import { expectContract } from '../helpers/expect-contract.ts'
import { redisTestsSkipped, startRedis, type RedisServer } from '../helpers/redis-server.ts'
import { freshTenant } from '../helpers/start-test-server.ts'
import { appendToken, fcmTokens, type Auth } from './helpers.ts'

/**
 * `--tenant-ttl` and `POST /__admin/reset?all=true` with `--redis` (docs/behaviour.md §3, §7):
 * a tenant not called for the TTL is deleted from Redis, every key of it; a reset of all leaves
 * no tenant stored. Through the built CLI, each test on a Redis of its own.
 */
const skipped = redisTestsSkipped()

const instances = redisInstances()
const servers: RedisServer[] = []
const clients: RedisClient[] = []
afterEach(async () => {
  await instances.stopAll()
  for (const client of clients.splice(0)) client.disconnect()
  await Promise.all(servers.splice(0).map((server) => server.stop()))
})
async function redis(): Promise<{ url: string; client: RedisClient }> {
  const server = await startRedis()
  servers.push(server)
  const client = await connectRedis(server.url)
  clients.push(client)
  return { url: server.url, client }
}

async function storedTenants(url: string): Promise<number> {
  const res = await request(url).get('/__admin/health')
  expect(res.status).toBe(200)
  await expectContract('getHealth', res, 'admin')
  return (res.body as { storedTenants: number }).storedTenants
}
const listedKeys = async (url: string) => ((await request(url).get('/__admin/tenants')).body.tenants as { apiKey: string }[]).map((t) => t.apiKey)
const keyOf = (auth: Auth) => auth.Authorization.slice('ApiKey '.length)
const keysOf = (client: RedisClient, auth: Auth) => client.keys(`${tenantKeyBase(keyOf(auth))}*`)
const SEED_TOKENS = ['fcm-token-ada-1']

/** Polls `check` until it holds, for at most `ms`. */
async function eventually(check: () => Promise<boolean>, ms: number): Promise<void> {
  const until = Date.now() + ms
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`not reached within ${ms} ms`)
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
}

describe.skipIf(skipped)('--redis with --tenant-ttl', () => {
  it('deletes every key of a tenant not called for the TTL, keeps one called meanwhile; its next call reads the seed', { timeout: 60_000 }, async () => {
    const { url: redisUrl, client } = await redis()
    const { url } = await instances.start(redisUrl, '--tenant-ttl', '3s')
    const [idle, busy] = [freshTenant(), freshTenant()]
    for (const auth of [idle, busy]) expect((await appendToken(url, auth, 'written')).status).toBe(200)
    expect((await request(url).post('/__admin/snapshots').set(idle).send({ name: 'kept-until-expiry' })).status).toBe(201)
    expect(await storedTenants(url)).toBe(2)
    expect(await keysOf(client, idle)).not.toEqual([])
    expect(await listedKeys(url)).toEqual(expect.arrayContaining([keyOf(idle), keyOf(busy)]))

    // The busy tenant is called every half second; the idle one not at all, until it is gone.
    await eventually(async () => {
      expect(await fcmTokens(url, busy)).toContain('written')
      return (await storedTenants(url)) === 1
    }, 30_000)
    expect(await listedKeys(url)).not.toContain(keyOf(idle))
    expect(await listedKeys(url)).toContain(keyOf(busy))
    expect(await keysOf(client, idle)).toEqual([])
    expect(await client.sismember(`${KEY_PREFIX}:tenants`, keyOf(idle))).toBe(0)
    expect(await client.zscore(`${KEY_PREFIX}:called`, keyOf(idle))).toBeNull()
    expect(await client.sismember(`${KEY_PREFIX}:tenants`, keyOf(busy))).toBe(1)

    // Its next call reads the seed, and it has no snapshot left.
    expect(await fcmTokens(url, idle)).toEqual(SEED_TOKENS)
    expect((await request(url).get('/__admin/snapshots').set(idle)).body.snapshots).toEqual([])
    expect(await fcmTokens(url, busy)).toEqual([...SEED_TOKENS, 'written'])
  })

  it('keeps every tenant with --tenant-ttl 0', { timeout: 30_000 }, async () => {
    const { url: redisUrl } = await redis()
    const { url } = await instances.start(redisUrl, '--tenant-ttl', '0')
    const idle = freshTenant()
    expect((await appendToken(url, idle, 'written')).status).toBe(200)
    await new Promise((resolve) => setTimeout(resolve, 3000))
    expect(await storedTenants(url)).toBe(1)
    expect(await fcmTokens(url, idle)).toEqual([...SEED_TOKENS, 'written'])
  })
})

describe.skipIf(skipped)('--redis reset with ?all=true', () => {
  it('leaves no tenant stored: none in the tenants set, none of their keys left, storedTenants 0 on both instances', { timeout: 30_000 }, async () => {
    const { url: redisUrl, client } = await redis()
    const [a, b] = await Promise.all([instances.start(redisUrl), instances.start(redisUrl)])
    const [first, second] = [freshTenant(), freshTenant()]
    expect((await appendToken(a.url, first, 'to-be-reset')).status).toBe(200)
    expect((await appendToken(b.url, second, 'to-be-reset')).status).toBe(200)
    expect(await storedTenants(a.url)).toBe(2)

    expect((await request(b.url).post('/__admin/reset?all=true').set(first)).status).toBe(200)
    expect(await client.smembers(`${KEY_PREFIX}:tenants`)).toEqual([])
    expect(await storedTenants(a.url)).toBe(0)
    expect(await storedTenants(b.url)).toBe(0)
    for (const auth of [first, second]) expect(await keysOf(client, auth)).toEqual([])
    // The instance that reset lists none; another lists only what it still holds in its own memory (a cache, read again at its next call).
    expect(await listedKeys(b.url)).toEqual([])
    expect(await listedKeys(a.url)).not.toContain(keyOf(second))
    // Instance a held `first` at its version before the reset: it reads the seed now, and writes again.
    expect(await fcmTokens(a.url, first)).toEqual(SEED_TOKENS)
    expect((await appendToken(a.url, first, 'after')).status).toBe(200)
    expect(await fcmTokens(b.url, first)).toEqual([...SEED_TOKENS, 'after'])
  })
})
