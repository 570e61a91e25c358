import request from 'supertest'
import { afterEach, describe, expect, it } from 'vitest'
import type { AppOptions } from '../../src/app/config.ts'
import type { MockServer } from '../../src/app/create-mock-server.ts'
import { expectContract } from '../helpers/expect-contract.ts'
import { startTestServer } from '../helpers/start-test-server.ts'
import { dbFile } from '../persistence/helpers.ts'

// Issue 53, rows 3 and 14, and docs/behaviour.md §3: tenants created through the admin API are
// tenants like the others, and no caller chooses another accepted key's seed.
const servers: MockServer[] = []
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()))
})
async function start(options: AppOptions = {}): Promise<MockServer> {
  const server = await startTestServer(options)
  servers.push(server)
  return server
}

const as = (key: string) => ({ Authorization: `ApiKey ${key}` })
const create = (url: string, caller: string, body: object) => request(url).post('/__admin/tenants').set(as(caller)).send(body)
const newKeyCall = (url: string, key: string) => request(url).get('/v2/subscribers/demo-subscriber-1').set(as(key))

describe('created tenants never lock new keys out (row 3)', () => {
  it('releases created tenants at --max-tenants for a new key, the caller’s own included, after reset?all=true too', async () => {
    const { url } = await start({ maxTenants: 5 })
    for (let i = 0; i < 8; i++) expect((await create(url, 'one', {})).status).toBe(201)
    expect((await newKeyCall(url, 'one')).status).toBe(200)
    expect((await newKeyCall(url, 'newcomer')).status).toBe(200)
    expect((await request(url).post('/__admin/reset?all=true').set(as('one'))).status).toBe(200)
    for (let i = 0; i < 8; i++) expect((await create(url, 'one', {})).status).toBe(201)
    expect((await newKeyCall(url, 'after-reset')).status).toBe(200)
    const listed = await request(url).get('/__admin/tenants')
    await expectContract('listTenants', listed, 'admin')
    expect(listed.body.tenants).toHaveLength(5)
  })

  it('keeps no lock-out across a restart with --db', async () => {
    const db = dbFile()
    const first = await start({ db, maxTenants: 3 })
    for (let i = 0; i < 5; i++) expect((await create(first.url, 'one', { subscribers: 3 })).status).toBe(201)
    await servers.splice(servers.indexOf(first), 1)[0]!.close()
    const again = await start({ db, maxTenants: 3 })
    expect((await newKeyCall(again.url, 'newcomer')).status).toBe(200)
    expect((await newKeyCall(again.url, 'another')).status).toBe(200)
  })
})

describe('POST /__admin/tenants for a key that has a tenant: 409', () => {
  it('answers 409 for a key held, and for a created key released from memory (its seed options kept)', async () => {
    const { url } = await start({ maxTenants: 1 })
    expect((await newKeyCall(url, 'caller')).status).toBe(200)
    const held = await create(url, 'someone', { apiKey: 'caller' })
    expect(held.status).toBe(409)
    await expectContract('createTenant', held, 'admin')
    expect(held.body.message).toMatch(/^Tenant [0-9a-f]{8} already exists$/)
    expect(held.text).not.toContain('caller')

    expect((await create(url, 'caller', { apiKey: 'made', subscribers: 4 })).status).toBe(201)
    // A call of another key releases it (maxTenants: 1); it comes back from its own seed.
    expect((await newKeyCall(url, 'other')).status).toBe(200)
    expect((await request(url).get('/__admin/tenants')).body.tenants.map((t: { apiKey: string }) => t.apiKey)).toEqual(['other'])
    expect((await create(url, 'caller', { apiKey: 'made', subscribers: 9 })).status).toBe(409)
    expect((await request(url).get('/__admin/state').set(as('made'))).body.subscribers).toHaveLength(4)
  })

  it('answers 409 for a key whose tenant is stored (--db), released from memory', async () => {
    const { url } = await start({ db: dbFile(), maxTenants: 1 })
    expect((await request(url).patch('/v1/subscribers/demo-subscriber-2/credentials').set(as('writer')).send({ providerId: 'fcm', credentials: { deviceTokens: ['t'] } })).status).toBe(200)
    expect((await newKeyCall(url, 'other')).status).toBe(200)
    expect((await create(url, 'other', { apiKey: 'writer', subscribers: 3 })).status).toBe(409)
    expect((await request(url).get('/__admin/state').set(as('writer'))).body.subscribers).toHaveLength(50)
  })
})

describe('strict mode: no caller creates another accepted key’s tenant (row 14)', () => {
  it('answers 403 to K1 creating K2, before the 409, and K2 keeps the server’s seed', async () => {
    const { url } = await start({ apiKeys: ['K1', 'K2'] })
    const refused = await create(url, 'K1', { apiKey: 'K2', channelConnections: 0 })
    expect(refused.status).toBe(403)
    await expectContract('createTenant', refused, 'admin')
    expect(refused.text).not.toContain('K2')
    expect((await newKeyCall(url, 'K2')).status).toBe(200)
    // Held now, yet 403 still: checked first.
    expect((await create(url, 'K1', { apiKey: 'K2', channelConnections: 0 })).status).toBe(403)
    expect((await request(url).post('/__admin/reset').set(as('K2'))).status).toBe(200)
    expect((await request(url).get('/__admin/state').set(as('K2'))).body.channelConnections).toHaveLength(120)
    // Its own key, or a new one, is the caller's to create.
    expect((await create(url, 'K1', { apiKey: 'K3' })).status).toBe(201)
  })
})
