import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { MockServer } from '../../src/app/create-mock-server.ts'
import { expectContract } from '../helpers/expect-contract.ts'
import { readState } from '../helpers/read-state.ts'
import { freshTenant, startTestServer } from '../helpers/start-test-server.ts'

type Auth = ReturnType<typeof freshTenant>

// An enforced limit of 3 calls an hour (a burst of 4): a spent bucket stays spent for the length of the test, however slow.
let server: MockServer
beforeAll(async () => {
  server = await startTestServer({ rateLimit: { limit: 3, windowSeconds: 3600 } })
})
afterAll(() => server.close())

const read = (auth: Auth) => request(server.url).get('/v2/subscribers/demo-subscriber-1').set(auth)
const keyedWrite = (auth: Auth, key: string, token: string) =>
  request(server.url)
    .patch('/v1/subscribers/demo-subscriber-1/credentials')
    .set(auth)
    .set('idempotency-key', key)
    .send({ providerId: 'fcm', credentials: { deviceTokens: [token] } })
const admin = (auth: Auth) => ({
  reset: (query = '') => request(server.url).post(`/__admin/reset${query}`).set(auth),
  faults: async () => (await request(server.url).get('/__admin/faults').set(auth)).body.faults as unknown[],
  requests: async () => (await request(server.url).get('/__admin/requests').set(auth)).body.requests as unknown[],
  snapshots: async () => ((await request(server.url).get('/__admin/snapshots').set(auth)).body.snapshots as { name: string }[]).map((s) => s.name),
})

/** A tenant with a write, a snapshot, an `unavailable` fault rule, journal entries, an idempotency record and a spent bucket. */
async function usedTenant(): Promise<Auth> {
  const auth = freshTenant()
  expect((await keyedWrite(auth, 'key-1', 'first')).status).toBe(200)
  expect((await request(server.url).post('/__admin/snapshots').set(auth).send({ name: 'kept' })).status).toBe(201)
  expect((await request(server.url).post('/__admin/faults').set(auth).send({ preset: 'unavailable' })).status).toBe(201)
  expect((await read(auth)).status).toBe(503) // the fault rule
  expect((await read(auth)).status).toBe(503)
  expect((await read(auth)).status).toBe(503) // a burst of 4 spent
  expect((await read(auth)).status).toBe(429)
  return auth
}

describe('POST /__admin/reset gives a clean tenant', () => {
  it('the seed, no fault rules, an empty journal, no idempotency records, a full bucket; snapshots stay', async () => {
    const auth = await usedTenant()
    const seed = await readState(server.url, freshTenant())
    const res = await admin(auth).reset()
    expect(res.status).toBe(200)
    await expectContract('resetState', res, 'admin')

    expect(await readState(server.url, auth)).toEqual(seed)
    expect(await admin(auth).faults()).toEqual([])
    expect(await admin(auth).requests()).toEqual([])
    expect(await admin(auth).snapshots()).toEqual(['kept'])
    const first = await read(auth)
    expect(first.status).toBe(200)
    expect(first.headers['ratelimit-remaining']).toBe('3')
    // The key's record is gone: the same key with another body is a new call, not a 422.
    const again = await keyedWrite(auth, 'key-1', 'second')
    expect(again.status).toBe(200)
    expect(again.headers['idempotency-replay']).toBeUndefined()
  })

  it('?all=true cleans every tenant, and releases them (snapshots stay)', async () => {
    const [a, b] = [await usedTenant(), await usedTenant()]
    const res = await admin(a).reset('?all=true')
    expect(res.status).toBe(200)
    await expectContract('resetState', res, 'admin')
    for (const auth of [a, b]) {
      expect(await admin(auth).faults()).toEqual([])
      expect(await admin(auth).requests()).toEqual([])
      expect(await admin(auth).snapshots()).toEqual(['kept'])
      expect((await read(auth)).status).toBe(200)
    }
  })
})
