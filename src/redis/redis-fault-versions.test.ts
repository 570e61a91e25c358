import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { redisTestsSkipped, startRedis, type RedisServer } from '../../test/helpers/redis-server.ts'
import { connectRedis, type RedisClient } from './redis-connection.ts'
import { RedisRateLimiter } from './redis-rate-limiter.ts'
import type { FaultCall } from '../policies/faults/fault-rules.ts'
import { RedisFaultRules } from './redis-fault-rules.ts'
import { SeenVersions } from '../policies/faults/seen-versions.ts'

/**
 * The fault rules' version read with each call's token: a call that matches no rule checks them
 * without a trip of its own, and a rule added through another instance still applies on the next
 * call. Two instances: each a limiter and fault rules sharing their SeenVersions, as policies.ts wires them.
 */

const skipped = redisTestsSkipped()
const call: FaultCall = { operationId: 'getSubscriber', method: 'GET', path: '/v2/subscribers/x', body: {}, documents: () => true }
const RATE = { limit: 1000, windowSeconds: 1 }

let redis: RedisServer
const clients: RedisClient[] = []
const instance = async () => {
  const client = await connectRedis(redis.url)
  clients.push(client)
  const seen = new SeenVersions()
  const limiter = new RedisRateLimiter(client, RATE, false, seen)
  const faults = new RedisFaultRules(client, () => 0.5, seen)
  // As the pipeline does: the token first, then the fault rules.
  return { faults, call: async (tenant: string) => (await limiter.take(tenant, Date.now(), call.operationId), faults.apply(tenant, call)) }
}

/** The scripts Redis has run: each is one round trip of a client. */
const scriptsRun = async () => {
  const stats = await clients[0]!.info('commandstats')
  return [...stats.matchAll(/^cmdstat_eval(?:sha)?:calls=(\d+)/gm)].reduce((sum, [, calls]) => sum + Number(calls), 0)
}

beforeAll(async () => {
  if (!skipped) redis = await startRedis()
})
afterAll(async () => {
  for (const client of clients) client.disconnect()
  await redis?.stop()
})

describe.skipIf(skipped)('the fault rules checked in the token’s trip', () => {
  it('costs a call matching no rule one script (the token), and applies a rule added elsewhere on the next call', async () => {
    const a = await instance()
    const b = await instance()
    const tenant = `tenant-${randomUUID()}`
    expect(await a.call(tenant)).toBeUndefined()
    const before = await scriptsRun()
    expect(await a.call(tenant)).toBeUndefined()
    expect((await scriptsRun()) - before).toBe(1)
    const rule = await b.faults.add(tenant, { preset: 'unavailable', match: { operationId: 'getSubscriber' } })
    expect(await a.call(tenant)).toMatchObject({ respond: { ruleId: rule!.id } })
    // A rule held that the call does not match, of the version seen: still no trip of its own.
    await a.call(tenant)
    const held = await scriptsRun()
    const other = await a.faults.apply(tenant, { ...call, operationId: 'listChannelConnections' })
    expect(other).toBeUndefined()
    expect((await scriptsRun()) - held).toBe(0)
    expect(await b.faults.clear(tenant)).toBe(1)
    expect(await a.call(tenant)).toBeUndefined()
  })
})
