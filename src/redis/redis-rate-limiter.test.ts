import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { redisTestsSkipped, startRedis, type RedisServer } from '../../test/helpers/redis-server.ts'
import { ApiError } from '../answer/api-error.ts'
import { connectRedis, type RedisClient } from './redis-connection.ts'
import { tenantKeyBase } from './redis-keys.ts'
import { StoreWriteFailed } from '../store/store.ts'
import type { RateLimitHeaders, RateLimitPort } from '../policies/rate-limit/rate-limit-port.ts'
import { RateLimiter, type RateLimit } from '../policies/rate-limit/rate-limiter.ts'
import { RedisRateLimiter } from './redis-rate-limiter.ts'
import { TenantClocks, type PendingTime } from '../policies/clock/tenant-clocks.ts'
import { redisBackend } from './backend/redis-backend.ts'
import { createLowdbStore } from '../store/lowdb-store.ts'
import { seedState } from '../seed/generators/seed.ts'

/**
 * Two RedisRateLimiters on two clients of one Redis stand in for two instances: a tenant's calls
 * over both take from one bucket, and the headers say what the in-memory RateLimiter of one
 * instance taking the same calls says.
 */

// Said once, by vitest.config.ts.
const skipped = redisTestsSkipped()

const START = Date.UTC(2030, 0, 1)
const newTenant = () => `tenant-${randomUUID()}`

let redis: RedisServer
const clients: RedisClient[] = []
const client = async (url: string) => {
  const connected = await connectRedis(url)
  clients.push(connected)
  return connected
}

beforeAll(async () => {
  if (!skipped) redis = await startRedis()
})
afterAll(async () => {
  for (const connected of clients) connected.disconnect()
  await redis?.stop()
})

/** The scripts Redis has run so far (EVALSHA and EVAL). */
const scriptCalls = async () => {
  const stats = await clients[0]!.info('commandstats')
  return [...stats.matchAll(/cmdstat_eval(?:sha)?:calls=(\d+)/g)].reduce((sum, [, calls]) => sum + Number(calls), 0)
}

/** Two instances' limiters on one Redis. */
const twoInstances = async (rate: RateLimit, enforce: boolean) => [
  new RedisRateLimiter(await client(redis.url), rate, enforce),
  new RedisRateLimiter(await client(redis.url), rate, enforce),
]

/** A call's headers, or the refusal's status and headers. */
const outcome = async (limiter: RateLimitPort, tenant: string, now: number | PendingTime, operationId = 'getSubscriber') => {
  try {
    return { status: 200, headers: await limiter.take(tenant, now, operationId) }
  } catch (error) {
    if (!(error instanceof ApiError)) throw error
    return { status: error.status, headers: error.details.headers as RateLimitHeaders }
  }
}

describe.skipIf(skipped)('rate-limit buckets in Redis, over two instances', () => {
  it('holds a limit of 10 over both: of 30 calls at once, the burst (11) is allowed, the rest answered 429', async () => {
    const instances = await twoInstances({ limit: 10, windowSeconds: 60 }, true)
    const tenant = newTenant()
    const outcomes = await Promise.all(Array.from({ length: 30 }, (_, i) => outcome(instances[i % 2]!, tenant, START + i)))
    expect(outcomes.filter(({ status }) => status === 200)).toHaveLength(11)
    const refused = outcomes.filter(({ status }) => status === 429)
    expect(refused).toHaveLength(19)
    for (const { headers } of refused) expect(headers['Retry-After']).toBe(headers['RateLimit-Reset'])
    // Another tenant has a bucket of its own.
    expect((await outcome(instances[1]!, newTenant(), START)).headers['RateLimit-Remaining']).toBe('10')
  })

  it('answers the calls of one turn, taken by one script, each as the in-memory adapter answers it taking them one by one', async () => {
    const rate = { limit: 10, windowSeconds: 1 }
    const [limiter] = await twoInstances(rate, true)
    const memory = new RateLimiter(rate, true)
    const tenant = newTenant()
    const times = Array.from({ length: 30 }, (_, i) => START + i * 40)
    const scripts = await scriptCalls()
    const outcomes = await Promise.all(times.map((now, i) => outcome(limiter!, tenant, now, i % 3 === 0 ? 'setPrimaryIntegration' : 'getSubscriber')))
    expect(await scriptCalls()).toBeLessThan(scripts + times.length)
    const expected = []
    for (const [i, now] of times.entries()) expected.push(await outcome(memory, tenant, now, i % 3 === 0 ? 'setPrimaryIntegration' : 'getSubscriber'))
    expect(outcomes).toEqual(expected)
    expect(outcomes.filter(({ status }) => status === 429).length).toBeGreaterThan(0)
  })

  it.each([
    ['a limit enforced', { limit: 5, windowSeconds: 1 }, true],
    ['the default limit, not enforced', { limit: 100, windowSeconds: 1 }, false],
    ['a window of 2.5 s', { limit: 3, windowSeconds: 2.5 }, true],
  ] as const)('answers the headers of the in-memory adapter, call by call, with %s', async (_name, rate, enforce) => {
    const instances = await twoInstances(rate, enforce)
    const memory = new RateLimiter(rate, enforce)
    const tenant = newTenant()
    // Bursts and pauses: calls 0 to 170 ms apart, with refills of a fraction of a token.
    let now = START
    for (let i = 0; i < 300; i++) {
      now += (i * 37) % 171
      const operationId = i % 7 === 0 ? 'setPrimaryIntegration' : 'getSubscriber'
      expect(await outcome(instances[i % 2]!, tenant, now, operationId)).toEqual(await outcome(memory, tenant, now, operationId))
    }
  })

  it.each([
    ['no clock kept, real time', undefined, undefined],
    ['no clock kept, --clock frozen', START, undefined],
    ['a clock set frozen', undefined, { frozen: true }],
    ['a clock set running', START, { frozen: false }],
    ['real time chosen', START, 'real'],
  ] as const)('reads the tenant’s clock itself, for a time on its way: the headers of its time, with %s', async (_name, start, setting) => {
    const rate = { limit: 3, windowSeconds: 1 }
    const [limiter] = await twoInstances(rate, true)
    const memory = new RateLimiter(rate, true)
    let real = START + 5_000
    // The clocks kept in the tenants' values, on a store over the same Redis.
    const seed = seedState({ seed: 1, subscribers: 1, channelConnections: 0 })
    const store = await createLowdbStore({ seed, maxTenants: 10, seedFor: async () => seed, backend: redisBackend(clients.at(-1)!) })
    const clocks = new TenantClocks({ store, start, realNow: () => real, onRewind: () => undefined })
    const tenant = newTenant()
    if (setting === 'real') await clocks.useRealTime(tenant)
    else if (setting) await clocks.set(tenant, START - 60_000, setting.frozen)
    for (let i = 0; i < 40; i++) {
      real += (i * 53) % 230
      // A jump of the tenant's time alone refills as much as it moved (a time the script read wrong would not).
      if (i === 20) await clocks.advance(tenant, 700)
      const time = clocks.read(tenant)
      if (typeof time === 'number') throw new Error('a clock kept in Redis is on its way')
      const expected = await outcome(memory, tenant, await time.ms)
      expect(await outcome(limiter!, tenant, time)).toEqual(expected)
    }
  })

  it('gives a bucket a day of real time to live, so idle tenants leave Redis and a frozen clock keeps it spent', async () => {
    const [limiter] = await twoInstances({ limit: 10, windowSeconds: 60 }, true)
    const tenant = newTenant()
    await limiter!.take(tenant, START, 'getSubscriber')
    const ttl = await clients[0]!.pttl(`${tenantKeyBase(tenant)}rate`)
    // Not the 66 s of a full refill: a tenant's frozen clock refills nothing (docs/behaviour.md §8).
    expect(ttl).toBeGreaterThan(23 * 60 * 60 * 1000)
    expect(ttl).toBeLessThanOrEqual(24 * 60 * 60 * 1000)
  })

  it('fills the bucket again when asked (the tenant’s clock went back)', async () => {
    const [a, b] = await twoInstances({ limit: 1, windowSeconds: 60 }, true)
    const tenant = newTenant()
    // A burst of 2: ceil(1 * 1.1).
    await a!.take(tenant, START, 'getSubscriber')
    await a!.take(tenant, START, 'getSubscriber')
    await expect(b!.take(tenant, START, 'getSubscriber')).rejects.toMatchObject({ status: 429 })
    await a!.refill(tenant)
    await expect(b!.take(tenant, START, 'getSubscriber')).resolves.toMatchObject({ 'RateLimit-Remaining': '1' })
  })
})

describe.skipIf(skipped)('rate-limit buckets in Redis, Redis stopped', () => {
  it('rejects a call with StoreWriteFailed, without waiting', async () => {
    const own = await startRedis()
    const limiter = new RedisRateLimiter(await client(own.url), { limit: 10, windowSeconds: 1 }, true)
    await limiter.take(newTenant(), START, 'getSubscriber')
    await own.stop()
    await expect(limiter.take(newTenant(), START, 'getSubscriber')).rejects.toBeInstanceOf(StoreWriteFailed)
  })
})
