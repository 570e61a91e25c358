import { randomUUID } from 'node:crypto'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { redisTestsSkipped, startRedis, type RedisServer } from '../../test/helpers/redis-server.ts'
import { connectRedis, type RedisClient } from './redis-connection.ts'
import { tenantKeyBase } from './redis-keys.ts'
import { StoreWriteFailed } from '../store/store.ts'
import { FaultRules, MAX_RULES, type FaultCall, type FaultEffect } from '../policies/faults/fault-rules.ts'
import type { FaultRuleRequest } from '../policies/faults/presets.ts'
import { RedisFaultRules } from './redis-fault-rules.ts'

/**
 * Two RedisFaultRules on two clients of one Redis stand in for two instances: whatever one is
 * told, the other applies, and both count the same calls against the same rules, as the
 * in-memory FaultRules of one instance does.
 */

// Said once, by vitest.config.ts.
const skipped = redisTestsSkipped()

const call = (operationId = 'getSubscriber', body: unknown = {}): FaultCall => ({
  operationId,
  method: 'GET',
  path: '/v2/subscribers/x',
  body,
  documents: (status) => status !== 418,
})
const newTenant = () => `tenant-${randomUUID()}`
/** Every latency range drawn at its middle, alike in both adapters. */
const middle = () => 0.5

let redis: RedisServer
const clients: RedisClient[] = []
let a: RedisFaultRules
let b: RedisFaultRules

const client = async (url: string) => {
  const connected = await connectRedis(url)
  clients.push(connected)
  return connected
}

beforeAll(async () => {
  if (skipped) return
  redis = await startRedis()
  a = new RedisFaultRules(await client(redis.url), middle)
  b = new RedisFaultRules(await client(redis.url), middle)
})
afterAll(async () => {
  for (const connected of clients) connected.disconnect()
  await redis?.stop()
})

/** The scripts Redis has run: each is one round trip of a client. */
const scriptsRun = async () => {
  const stats = await clients[0]!.info('commandstats')
  return [...stats.matchAll(/^cmdstat_eval(?:sha)?:calls=(\d+)/gm)].reduce((sum, [, calls]) => sum + Number(calls), 0)
}

/** Calls spread over both instances at once, alternating; the effects in the order sent. */
const spread = (tenant: string, calls: number, made = () => call()) =>
  Promise.all(Array.from({ length: calls }, (_, i) => (i % 2 === 0 ? a : b).apply(tenant, made())))
const appliedOf = (effects: (FaultEffect | undefined)[]) => effects.filter((effect) => effect !== undefined).length

describe.skipIf(skipped)('fault rules in Redis, over two instances', () => {
  it('applies a rule added through one instance on the other, and lists it alike on both', async () => {
    const tenant = newTenant()
    expect(await b.apply(tenant, call())).toBeUndefined()
    const rule = await a.add(tenant, { preset: 'unavailable', match: { operationId: 'getSubscriber' } })
    expect(rule).toMatchObject({ id: expect.stringMatching(/^fault-\d+$/), matched: 0, applied: 0 })
    expect(await b.apply(tenant, call())).toEqual({ latencyMs: 0, drop: false, respond: { ...rule!.respond, ruleId: rule!.id } })
    expect(await b.apply(tenant, call('listChannelConnections'))).toBeUndefined()
    const listed = { ...rule, matched: 1, applied: 1 }
    expect(await a.list(tenant)).toEqual([listed])
    expect(await b.list(tenant)).toEqual([listed])
    expect(await a.list(newTenant())).toEqual([])
  })

  it('applies a rule with `times: 3` exactly 3 times over concurrent calls on both, then removes it for both', async () => {
    const tenant = newTenant()
    await a.add(tenant, { respond: { status: 503 }, times: 3 })
    const effects = await spread(tenant, 40)
    expect(appliedOf(effects)).toBe(3)
    expect(await a.list(tenant)).toEqual([])
    expect(await b.list(tenant)).toEqual([])
    expect(appliedOf(await spread(tenant, 4))).toBe(0)
  })

  it('applies an `everyNth: 2` rule on every second matching call over both', async () => {
    const tenant = newTenant()
    const rule = (await b.add(tenant, { latencyMs: 7, everyNth: 2 }))!
    const effects = await spread(tenant, 40)
    expect(appliedOf(effects)).toBe(20)
    expect(await a.list(tenant)).toEqual([{ ...rule, matched: 40, applied: 20 }])
  })

  it('counts `times` down as calls apply it, seen by both', async () => {
    const tenant = newTenant()
    const rule = (await a.add(tenant, { drop: true, everyNth: 2, times: 3 }))!
    await spread(tenant, 3)
    expect(await b.list(tenant)).toEqual([{ ...rule, matched: 3, applied: 1, times: 2 }])
  })

  it('removes and clears rules for both instances', async () => {
    const tenant = newTenant()
    const first = (await a.add(tenant, { latencyMs: 1 }))!
    const second = (await b.add(tenant, { latencyMs: 2 }))!
    const third = (await a.add(tenant, { latencyMs: 4 }))!
    expect(await a.apply(tenant, call())).toEqual({ latencyMs: 7, drop: false })
    expect(await b.remove(tenant, second.id)).toEqual({ ...second, matched: 1, applied: 1 })
    expect(await a.remove(tenant, second.id)).toBeUndefined()
    expect((await a.list(tenant)).map((rule) => rule.id)).toEqual([first.id, third.id])
    expect(await a.apply(tenant, call())).toEqual({ latencyMs: 5, drop: false })
    expect(await b.clear(tenant)).toBe(2)
    expect(await a.clear(tenant)).toBe(0)
    expect(await a.apply(tenant, call())).toBeUndefined()
    expect(await b.list(tenant)).toEqual([])
  })

  it('gives every rule an id of its own over both instances', async () => {
    const tenants = [newTenant(), newTenant()]
    const added = await Promise.all(Array.from({ length: 40 }, (_, i) => (i % 2 ? a : b).add(tenants[i % 4 < 2 ? 0 : 1]!, { latencyMs: i })))
    expect(new Set(added.map((rule) => rule!.id)).size).toBe(40)
  })

  it(`keeps at most ${MAX_RULES} rules per tenant over both`, async () => {
    const tenant = newTenant()
    const added = await Promise.all(Array.from({ length: MAX_RULES + 5 }, (_, i) => (i % 2 ? a : b).add(tenant, { latencyMs: i })))
    expect(added.filter((rule) => rule === undefined)).toHaveLength(5)
    expect(await b.list(tenant)).toHaveLength(MAX_RULES)
  })

  it('leaves no key of a tenant in Redis once its rules are gone', async () => {
    const tenant = newTenant()
    await a.add(tenant, { respond: { status: 500 }, times: 1 })
    expect(await b.apply(tenant, call())).toBeDefined()
    await a.add(tenant, { latencyMs: 1 })
    await a.clear(tenant)
    await b.add(tenant, { latencyMs: 1 })
    await b.remove(tenant, (await a.list(tenant))[0]!.id)
    expect(await clients[0]!.keys(`${tenantKeyBase(tenant)}*`)).toEqual([])
  })

  it('costs a call one script in Redis, two for the first call after its rules changed', async () => {
    const tenant = newTenant()
    const scriptsFor = async (work: () => Promise<unknown>) => {
      const before = await scriptsRun()
      await work()
      return (await scriptsRun()) - before
    }
    const tenCalls = async () => {
      for (let i = 0; i < 10; i++) await a.apply(tenant, call())
    }
    expect(await scriptsFor(tenCalls)).toBe(10)
    await b.add(tenant, { latencyMs: 1 })
    expect(await scriptsFor(tenCalls)).toBe(11)
    expect(await scriptsFor(tenCalls)).toBe(10)
  })

  it('answers as the in-memory adapter does for any sequence, spread over both', { timeout: 120_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 30 }), async (steps) => {
        const tenant = newTenant()
        const memory = new FaultRules(middle)
        // The in-memory ids of the rules, by their ids in Redis: the counters differ, the rules do not.
        const ids = new Map<string, string>()
        const same = (value: unknown) => JSON.parse(JSON.stringify(value ?? null).replace(/fault-\d+/g, (id) => ids.get(id) ?? id)) as unknown
        for (const [i, [name, n]] of steps.entries()) {
          const redis = i % 2 === 0 ? a : b
          if (name === 'add') {
            const request = REQUESTS[n % REQUESTS.length]!
            const [inMemory, inRedis] = [memory.add(tenant, request), await redis.add(tenant, request)]
            if (inRedis) ids.set(inRedis.id, inMemory!.id)
            expect(same(inRedis)).toEqual(same(inMemory))
          } else if (name === 'remove') {
            const listed = await redis.list(tenant)
            const id = listed[n % Math.max(1, listed.length)]?.id ?? 'fault-0'
            expect(same(await redis.remove(tenant, id))).toEqual(same(memory.remove(tenant, ids.get(id) ?? id)))
          } else if (name === 'clear') {
            expect(await redis.clear(tenant)).toBe(memory.clear(tenant))
          } else {
            const made = CALLS[n % CALLS.length]!()
            expect(same(await redis.apply(tenant, made))).toEqual(same(memory.apply(tenant, made)))
          }
          expect(same(await redis.list(tenant))).toEqual(same(memory.list(tenant)))
        }
      }),
      { numRuns: 25 },
    )
  })
})

const REQUESTS: FaultRuleRequest[] = [
  { preset: 'flaky', times: 2 },
  { preset: 'slow', match: { method: 'GET' } },
  { preset: 'rate-limited', match: { operationId: 'listChannelConnections' }, everyNth: 2 },
  { respond: { status: 418 } },
  { drop: true, match: { bodyMatches: { markAs: 'read' } }, times: 1 },
  { latencyMs: 3, match: { path: '/v2/subscribers/x' }, everyNth: 3, times: 2 },
]
const CALLS: (() => FaultCall)[] = [() => call(), () => call('listChannelConnections'), () => call('markMessagesAs', { markAs: 'read', messageId: 'm' })]
const step = fc.tuple(fc.constantFrom('add', 'add', 'apply', 'apply', 'apply', 'remove', 'clear'), fc.nat(100))

describe.skipIf(skipped)('fault rules in Redis, Redis stopped', () => {
  it('rejects every method with StoreWriteFailed, without waiting', async () => {
    const own = await startRedis()
    const rules = new RedisFaultRules(await client(own.url))
    const tenant = newTenant()
    await rules.add(tenant, { latencyMs: 1 })
    await own.stop()
    await expect(rules.add(tenant, { latencyMs: 1 })).rejects.toBeInstanceOf(StoreWriteFailed)
    await expect(rules.list(tenant)).rejects.toBeInstanceOf(StoreWriteFailed)
    await expect(rules.remove(tenant, 'fault-1')).rejects.toBeInstanceOf(StoreWriteFailed)
    await expect(rules.clear(tenant)).rejects.toBeInstanceOf(StoreWriteFailed)
    await expect(rules.apply(tenant, call())).rejects.toBeInstanceOf(StoreWriteFailed)
  })
})
