import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { MockServer } from '../../src/app/create-mock-server.ts'
import { expectContract } from '../helpers/expect-contract.ts'
import { freshTenant, startTestServer } from '../helpers/start-test-server.ts'

type Auth = { Authorization: string }

const T0 = '2025-03-01T12:00:00.000Z'
const HOUR = 60 * 60 * 1000
const CREDENTIALS = '/v1/subscribers/demo-subscriber-1/credentials'

let server: MockServer
beforeAll(async () => {
  // 3 calls a second, enforced: a window a test can cross by advancing the clock, never by waiting.
  server = await startTestServer({ rateLimit: { limit: 3, windowSeconds: 1 } })
})
afterAll(() => server.close())

const setClock = (auth: Auth, now: string) => request(server.url).put('/__admin/clock').set(auth).send({ now })
const advance = (auth: Auth, ms: number) => request(server.url).post('/__admin/clock/advance').set(auth).send({ ms })
const reset = (auth: Auth) => request(server.url).post('/__admin/reset').set(auth)
const keyed = (auth: Auth, key: string, webhookUrl: string) =>
  request(server.url).patch(CREDENTIALS).set(auth).set('Idempotency-Key', key).send({ providerId: 'slack', credentials: { webhookUrl } })
const read = (auth: Auth) => request(server.url).get('/v2/subscribers/demo-subscriber-2').set(auth)

/** Calls until the first 429 (at most 10): how many passed, and the 429. */
async function spend(auth: Auth) {
  for (let passed = 0; passed < 10; passed++) {
    const res = await read(auth)
    if (res.status === 429) return { passed, refused: res }
  }
  throw new Error('the bucket never ran dry')
}

describe('idempotency retention on the tenant’s clock', () => {
  it('keeps a key for 24 h of the tenant’s time: advance 25 h and another body runs anew', async () => {
    const auth = freshTenant()
    await setClock(auth, T0)
    expect((await keyed(auth, 'k1', 'https://hooks.example.com/a')).status).toBe(200)
    await advance(auth, 23 * HOUR)
    const reused = await keyed(auth, 'k1', 'https://hooks.example.com/b')
    expect(reused.status).toBe(422)
    await expectContract('upsertSubscriberCredentials', reused)
    await advance(auth, 2 * HOUR)
    const anew = await keyed(auth, 'k1', 'https://hooks.example.com/b')
    expect(anew.status).toBe(200)
    expect(anew.headers['idempotency-replay']).toBeUndefined()
    expect(anew.body.channels.find((c: { providerId: string }) => c.providerId === 'slack').credentials.webhookUrl).toBe('https://hooks.example.com/b')
  })

  it('counts records as stored at the new time when the clock goes back', async () => {
    const auth = freshTenant()
    await setClock(auth, T0)
    expect((await keyed(auth, 'k2', 'https://hooks.example.com/a')).status).toBe(200)
    // Two days back: the record counts as stored then, so 25 h later (still before T0) it has expired.
    await setClock(auth, '2025-02-27T12:00:00.000Z')
    expect((await keyed(auth, 'k2', 'https://hooks.example.com/b')).status).toBe(422)
    await advance(auth, 25 * HOUR)
    expect((await keyed(auth, 'k2', 'https://hooks.example.com/b')).status).toBe(200)
  })
})

describe('the rate limit on the tenant’s clock', () => {
  it('never refills a frozen bucket, and passes calls again once the clock moves past the window', async () => {
    const auth = freshTenant()
    await setClock(auth, T0)
    const { passed, refused } = await spend(auth)
    expect(passed).toBeGreaterThanOrEqual(3)
    await expectContract('getSubscriber', refused)
    expect(refused.headers['retry-after']).toBe(refused.headers['ratelimit-reset'])
    // Real time passes; the tenant's does not.
    await new Promise((resolve) => setTimeout(resolve, 1500))
    expect((await read(auth)).status).toBe(429)
    await advance(auth, 2000)
    expect((await read(auth)).status).toBe(200)
  })

  it('fills the bucket when the clock goes back: a PUT to an earlier time, or DELETE after an advance', async () => {
    const auth = freshTenant()
    await setClock(auth, T0)
    await spend(auth)
    await setClock(auth, '2025-03-01T11:00:00.000Z')
    expect((await read(auth)).status).toBe(200)
    await spend(auth)
    // Far in the future, then back to real time: back, so full again.
    await setClock(auth, '2999-01-01T00:00:00.000Z')
    await spend(auth)
    await request(server.url).delete('/__admin/clock').set(auth)
    expect((await read(auth)).status).toBe(200)
  })

  it('a reset puts the tenant back on its starting clock with a full bucket', async () => {
    const auth = freshTenant()
    await setClock(auth, '2999-01-01T00:00:00.000Z')
    await spend(auth)
    expect((await reset(auth)).status).toBe(200)
    expect((await read(auth)).status).toBe(200)
  })
})

describe('real time, always', () => {
  it('keeps a running call’s key busy (409) however far the clock is advanced meanwhile', async () => {
    const auth = freshTenant()
    await setClock(auth, T0)
    const slow = keyed(auth, 'k-slow', 'https://hooks.example.com/slow').set('Prefer', 'delay=3000').then((res) => res)
    // Probes whose answer is forced leave no record: they see a 409 once the slow call holds the key.
    const probe = () => keyed(auth, 'k-slow', 'https://hooks.example.com/slow').set('Prefer', 'code=404')
    let meanwhile = await probe()
    for (let tries = 0; meanwhile.status !== 409 && tries < 100; tries++) meanwhile = await new Promise((resolve) => setTimeout(resolve, 20)).then(probe)
    expect(meanwhile.status).toBe(409)
    await advance(auth, 25 * HOUR)
    expect((await probe()).status).toBe(409)
    expect((await slow).status).toBe(200)
  })

  it('waits real milliseconds for Prefer: delay under a frozen clock, and stamps the tenant’s time', async () => {
    const auth = freshTenant()
    await setClock(auth, T0)
    const started = Date.now()
    const res = await request(server.url).get('/v2/subscribers/nobody').set(auth).set('Prefer', 'delay=200')
    expect(Date.now() - started).toBeGreaterThanOrEqual(190)
    expect(res.status).toBe(404)
    expect(res.body.timestamp).toBe(T0)
  })
})
