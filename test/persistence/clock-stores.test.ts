import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { MockServer } from '../../src/app/create-mock-server.ts'
import { expectContract } from '../helpers/expect-contract.ts'
import { redisTestsSkipped, startRedis, type RedisServer } from '../helpers/redis-server.ts'
import { freshTenant, startTestServer } from '../helpers/start-test-server.ts'
import { dbFile, type Auth } from './helpers.ts'

const T0 = '2025-03-01T12:00:00.000Z'
const START = '2024-12-24T18:00:00.000Z'
const HOUR = 60 * 60 * 1000

const clockOf = async (url: string, auth: Auth) => {
  const res = await request(url).get('/__admin/clock').set(auth)
  await expectContract('getClock', res, 'admin')
  return res.body as { now: string; frozen: boolean }
}
const setClock = (url: string, auth: Auth, now: string) => request(url).put('/__admin/clock').set(auth).send({ now })
const advance = (url: string, auth: Auth, ms: number) => request(url).post('/__admin/clock/advance').set(auth).send({ ms })
const keyed = (url: string, auth: Auth, key: string, webhookUrl: string) =>
  request(url).patch('/v1/subscribers/demo-subscriber-1/credentials').set(auth).set('Idempotency-Key', key).send({ providerId: 'slack', credentials: { webhookUrl } })

describe('--db keeps each tenant’s clock', () => {
  it('gives a tenant its clock back after a restart, over --clock; a reset one starts at --clock', async () => {
    const db = dbFile()
    const [frozen, real, reset] = [freshTenant(), freshTenant(), freshTenant()]
    const first = await startTestServer({ db })
    await setClock(first.url, frozen, T0)
    await advance(first.url, frozen, HOUR)
    await setClock(first.url, reset, T0)
    await request(first.url).delete('/__admin/clock').set(real)
    await first.close()

    const second = await startTestServer({ db, clock: Date.parse(START) })
    expect(await clockOf(second.url, frozen)).toEqual({ now: '2025-03-01T13:00:00.000Z', frozen: true })
    expect((await clockOf(second.url, real)).frozen).toBe(false)
    expect(await clockOf(second.url, freshTenant())).toEqual({ now: START, frozen: true })
    await request(second.url).post('/__admin/reset').set(reset)
    await second.close()

    const third = await startTestServer({ db, clock: Date.parse(START) })
    try {
      expect(await clockOf(third.url, reset)).toEqual({ now: START, frozen: true })
    } finally {
      await third.close()
    }
  })
})

describe('--db keeps idempotency records on the tenant’s clock', () => {
  it('still refuses a reused key after a restart under a clock long past, and runs it anew 25 h later', async () => {
    const db = dbFile()
    const auth = freshTenant()
    const first = await startTestServer({ db, clock: Date.parse(START) })
    expect((await keyed(first.url, auth, 'k1', 'https://hooks.example.com/a')).status).toBe(200)
    await first.close()
    const second = await startTestServer({ db, clock: Date.parse(START) })
    try {
      expect((await keyed(second.url, auth, 'k1', 'https://hooks.example.com/b')).status).toBe(422)
      await advance(second.url, auth, 25 * HOUR)
      expect((await keyed(second.url, auth, 'k1', 'https://hooks.example.com/b')).status).toBe(200)
    } finally {
      await second.close()
    }
  })
})

// Said once, by vitest.config.ts.
const skipped = redisTestsSkipped()

describe.skipIf(skipped)('--redis: every instance answers a tenant on the same clock', () => {
  let redis: RedisServer
  let a: MockServer
  let b: MockServer
  beforeAll(async () => {
    redis = await startRedis()
    ;[a, b] = (await Promise.all([0, 1].map(() => startTestServer({ redis: redis.url, rateLimit: { limit: 3, windowSeconds: 1 }, clock: Date.parse(START) })))) as [MockServer, MockServer]
  })
  afterAll(async () => {
    await Promise.all([a, b].filter(Boolean).map((server) => server.close()))
    await redis?.stop()
  })

  it('shows one instance’s set and advance on the other, and stamps its writes there', async () => {
    const auth = freshTenant()
    expect(await clockOf(b.url, auth)).toEqual({ now: START, frozen: true })
    await setClock(a.url, auth, T0)
    await advance(b.url, auth, 1000)
    expect(await clockOf(a.url, auth)).toEqual({ now: '2025-03-01T12:00:01.000Z', frozen: true })
    const written = await keyed(b.url, auth, 'k0', 'https://hooks.example.com/a')
    expect(written.body.updatedAt).toBe('2025-03-01T12:00:01.000Z')
  })

  it('keeps idempotency records 24 h of the tenant’s time, a clock in the past included, and restamps them when it goes back', async () => {
    const auth = freshTenant()
    await setClock(a.url, auth, T0)
    expect((await keyed(a.url, auth, 'k1', 'https://hooks.example.com/a')).status).toBe(200)
    expect((await keyed(b.url, auth, 'k1', 'https://hooks.example.com/b')).status).toBe(422)
    await setClock(b.url, auth, '2025-02-27T12:00:00.000Z')
    expect((await keyed(a.url, auth, 'k1', 'https://hooks.example.com/b')).status).toBe(422)
    await advance(a.url, auth, 25 * HOUR)
    expect((await keyed(b.url, auth, 'k1', 'https://hooks.example.com/b')).status).toBe(200)
  })

  it('never refills a frozen bucket shared by both, and passes calls once the clock moves on', async () => {
    const auth = freshTenant()
    const read = (url: string) => request(url).get('/v2/subscribers/demo-subscriber-2').set(auth)
    let status = 200
    for (let i = 0; i < 10 && status === 200; i++) status = (await read(i % 2 === 0 ? a.url : b.url)).status
    expect(status).toBe(429)
    await new Promise((resolve) => setTimeout(resolve, 1500))
    expect((await read(b.url)).status).toBe(429)
    await advance(a.url, auth, 2000)
    expect((await read(b.url)).status).toBe(200)
  })

  it('reset puts the tenant back on --clock for every instance', async () => {
    const auth = freshTenant()
    await setClock(a.url, auth, T0)
    await request(b.url).post('/__admin/reset').set(auth)
    expect(await clockOf(a.url, auth)).toEqual({ now: START, frozen: true })
  })

  it('refuses an instance started with another --clock: --clock is recorded with the seed options', async () => {
    await expect(startTestServer({ redis: redis.url, clock: Date.parse(T0) })).rejects.toThrow(/--clock 2024-12-24T18:00:00.000Z/)
  })
})
