import request from 'supertest'
import { afterEach, describe, expect, it } from 'vitest'
import type { AppOptions } from '../../src/app/config.ts'
import type { MockServer } from '../../src/app/create-mock-server.ts'
import { expectContract } from '../helpers/expect-contract.ts'
import { freshTenant, startTestServer } from '../helpers/start-test-server.ts'
import { appendToken, dbFile, fcmTokens, type Auth } from './helpers.ts'

const servers: MockServer[] = []
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()))
})
async function start(options: AppOptions) {
  const server = await startTestServer(options)
  servers.push(server)
  return server.url
}

async function health(url: string) {
  const res = await request(url).get('/__admin/health')
  expect(res.status).toBe(200)
  await expectContract('getHealth', res, 'admin')
  return res.body as { storedTenants?: number }
}
const released = async (url: string) => (await request(url).get('/__admin/tenants')).body.released as number
const keyedToken = (url: string, auth: Auth, token: string) =>
  request(url)
    .patch('/v1/subscribers/demo-subscriber-1/credentials')
    .set(auth)
    .set('idempotency-key', 'the-key')
    .send({ providerId: 'fcm', credentials: { deviceTokens: [token] } })

describe('--db at the tenant bound (maxTenants: 1)', () => {
  it('releases a tenant that wrote, and brings its records, idempotency records, snapshots and own seed back on its next call', async () => {
    const url = await start({ db: dbFile(), maxTenants: 1 })
    const [writer, created] = [freshTenant(), { Authorization: 'ApiKey created-on-purpose' }]
    expect((await keyedToken(url, writer, 'kept')).status).toBe(200)
    expect((await request(url).post('/__admin/snapshots').set(writer).send({ name: 'before' })).status).toBe(201)
    expect((await appendToken(url, writer, 'after-snapshot')).status).toBe(200)

    // Two newcomers: the writer is released for the first, the first for the second.
    for (const newcomer of [freshTenant(), freshTenant()]) expect((await appendToken(url, newcomer, 'other')).status).toBe(200)
    expect(await released(url)).toBe(2)
    // Looked at through the admin API, the released tenant shows what is stored, and stays released.
    expect((await request(url).get('/__admin/snapshots').set(writer)).body.snapshots.map((s: { name: string }) => s.name)).toEqual(['before'])
    const state = await request(url).get('/__admin/state').set(writer)
    expect(state.body.subscribers.find((s: { subscriberId: string }) => s.subscriberId === 'demo-subscriber-1').channels[0].credentials.deviceTokens).toContain('after-snapshot')
    expect((await request(url).get('/__admin/tenants')).body.tenants.map((t: { apiKey: string }) => t.apiKey)).not.toContain(writer.Authorization.slice('ApiKey '.length))

    expect(await fcmTokens(url, writer)).toEqual(['fcm-token-ada-1', 'kept', 'after-snapshot'])
    const replay = await keyedToken(url, writer, 'kept')
    expect(replay.status).toBe(200)
    expect(replay.headers['idempotency-replay']).toBe('true')
    expect((await request(url).post('/__admin/snapshots/before/restore').set(writer)).status).toBe(200)
    expect(await fcmTokens(url, writer)).toEqual(['fcm-token-ada-1', 'kept'])

    // A created tenant is held at once (releasing the writer), from its own seed.
    const made = await request(url).post('/__admin/tenants').set(writer).send({ apiKey: 'created-on-purpose', subscribers: 3 })
    expect(made.status).toBe(201)
    expect((await request(url).get('/v2/subscribers/demo-subscriber-2').set(created)).status).toBe(200)
    expect((await request(url).get('/__admin/state').set(created)).body.subscribers).toHaveLength(3)
  })

  it('resets a released tenant as it is stored: its next call sees the seed', async () => {
    const url = await start({ db: dbFile(), maxTenants: 1 })
    const writer = freshTenant()
    expect((await appendToken(url, writer, 'kept')).status).toBe(200)
    expect((await appendToken(url, freshTenant(), 'other')).status).toBe(200)
    expect((await request(url).post('/__admin/reset').set(writer)).status).toBe(200)
    expect(await fcmTokens(url, writer)).toEqual(['fcm-token-ada-1'])
  })
  it('keeps no fault rules in the file: they go with the tenant’s release, and a restart on the file has none (docs/behaviour.md §3)', async () => {
    const file = dbFile()
    const faulty = freshTenant()
    const rule = { match: { operationId: 'getSubscriber' }, respond: { status: 404 } }
    const getOne = (url: string) => request(url).get('/v2/subscribers/demo-subscriber-1').set(faulty)
    const url = await start({ db: file, maxTenants: 1 })
    expect((await appendToken(url, faulty, 'kept')).status).toBe(200)
    expect((await request(url).post('/__admin/faults').set(faulty).send(rule)).status).toBe(201)
    expect((await getOne(url)).status).toBe(404)
    expect((await appendToken(url, freshTenant(), 'other')).status).toBe(200)
    expect(await released(url)).toBe(1)
    expect((await request(url).get('/__admin/faults').set(faulty)).body.faults).toEqual([])
    expect((await getOne(url)).status).toBe(200)
    expect((await request(url).post('/__admin/faults').set(faulty).send(rule)).status).toBe(201)
    await Promise.all(servers.splice(0).map((server) => server.close()))
    const again = await start({ db: file, maxTenants: 1 })
    expect(await fcmTokens(again, faulty)).toEqual(['fcm-token-ada-1', 'kept'])
    expect((await request(again).get('/__admin/faults').set(faulty)).body.faults).toEqual([])
    expect((await getOne(again)).status).toBe(200)
  })
})

describe('--tenant-ttl', () => {
  it('deletes a stored tenant not called for the TTL; 0 keeps it; health counts the stored tenants', async () => {
    const db = dbFile()
    const [a, b] = [freshTenant(), freshTenant()]
    const forever = await start({ db, tenantTtlMs: 0 })
    expect((await health(forever)).storedTenants).toBe(0)
    expect((await appendToken(forever, a, 'a-token')).status).toBe(200)
    expect((await appendToken(forever, b, 'b-token')).status).toBe(200)
    expect((await health(forever)).storedTenants).toBe(2)
    await servers.pop()!.close()

    const brief = await start({ db, tenantTtlMs: 1000 })
    await expect.poll(async () => (await health(brief)).storedTenants, { timeout: 30_000, interval: 200 }).toBe(0)
    expect(await fcmTokens(brief, a)).toEqual(['fcm-token-ada-1'])
  })

  it('is absent from health in memory, where nothing is stored', async () => {
    expect((await health(await start({}))).storedTenants).toBeUndefined()
  })
})
