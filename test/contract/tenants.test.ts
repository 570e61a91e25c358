import request from 'supertest'
import { afterEach, describe, expect, it } from 'vitest'
import type { AppOptions } from '../../src/app/config.ts'
import type { MockServer } from '../../src/app/create-mock-server.ts'
import { expectContract } from '../helpers/expect-contract.ts'
import { readState } from '../helpers/read-state.ts'
import { freshTenant, startTestServer } from '../helpers/start-test-server.ts'
import { ADA, adaMessage } from '../helpers/well-known.ts'

let server: MockServer | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
})

async function start(options: AppOptions = {}) {
  server = await startTestServer(options)
  return server.url
}

async function createTenant(url: string, auth: { Authorization: string }, body: object, status = 201) {
  const res = await request(url).post('/__admin/tenants').set(auth).send(body)
  expect(res.status).toBe(status)
  await expectContract('createTenant', res, 'admin')
  return res
}

const as = (apiKey: string) => ({ Authorization: `ApiKey ${apiKey}` })

describe('POST /__admin/tenants', () => {
  it('creates a tenant from its own seed and volumes, and resets it to them', async () => {
    const url = await start()
    const res = await createTenant(url, freshTenant(), { apiKey: 'team-a', seed: 7, subscribers: 5, channelConnections: 3 })
    expect(res.body).toEqual({ apiKey: 'team-a', seed: 7, counts: { subscribers: 5, integrations: 9, channelConnections: 3, messages: 28 } })
    const seeded = await readState(url, as('team-a'))
    expect(seeded.channelConnections).toHaveLength(3)
    const marked = await request(url).post(`/v1/subscribers/${ADA}/messages/mark-as`).set(as('team-a')).send({ messageId: adaMessage(1), markAs: 'read' })
    expect(marked.status).toBe(201)
    expect((await request(url).post('/__admin/reset').set(as('team-a'))).status).toBe(200)
    expect(await readState(url, as('team-a'))).toEqual(seeded)
  })

  it('differs from the default seed only in the generated records', async () => {
    const url = await start()
    await createTenant(url, freshTenant(), { apiKey: 'seven', seed: 7 })
    const [own, shared] = [await readState(url, as('seven')), await readState(url, freshTenant())]
    expect(own.integrations).toEqual(shared.integrations)
    expect(own.subscribers.slice(0, 2)).toEqual(shared.subscribers.slice(0, 2))
    expect(own.subscribers[2]).not.toEqual(shared.subscribers[2])
  })

  it('makes up a key when none is given, and refuses one that exists (409)', async () => {
    const url = await start()
    const made = await createTenant(url, freshTenant(), {})
    expect(made.body.apiKey).toMatch(/^mock_/)
    const again = await createTenant(url, freshTenant(), { apiKey: made.body.apiKey }, 409)
    expect(again.body.message).toMatch(/^Tenant [0-9a-f]{8} already exists$/)
  })

  it.each([
    [{ subscribers: 1 }, 'subscribers'],
    [{ messages: 12 }, 'messages'],
    [{ channelConnections: -1 }, 'channelConnections'],
    [{ apiKey: 'has space' }, 'apiKey'],
    [{ seed: 'one' }, 'seed'],
  ])('refuses %j with a 422 naming the field', async (body, field) => {
    const url = await start()
    const res = await createTenant(url, freshTenant(), body, 422)
    expect(Object.keys(res.body.errors)).toEqual([field])
  })

  it('accepts the created key in strict mode', async () => {
    const url = await start({ apiKeys: ['admin-key'] })
    expect((await request(url).get(`/v2/subscribers/${ADA}`).set(as('created'))).status).toBe(401)
    await createTenant(url, as('admin-key'), { apiKey: 'created' })
    const res = await request(url).get(`/v2/subscribers/${ADA}`).set(as('created'))
    expect(res.status).toBe(200)
    await expectContract('getSubscriber', res)
  })

  it('releases a created tenant at the tenant bound like any other, and it comes back from its own seed', async () => {
    const url = await start({ maxTenants: 2 })
    await createTenant(url, as('visitor-1'), { apiKey: 'kept', seed: 3, subscribers: 3 })
    // kept and a reader fill the bound; the next reader pushes the least recently used out: kept.
    for (const visitor of ['visitor-2', 'visitor-3']) {
      expect((await request(url).get('/v1/channel-connections').set(as(visitor))).status).toBe(200)
    }
    const listed = await request(url).get('/__admin/tenants')
    expect(listed.body.tenants.map((t: { apiKey: string }) => t.apiKey)).toEqual(['visitor-3', 'visitor-2'])
    expect(listed.body.released).toBe(1)
    expect((await readState(url, as('kept'))).subscribers).toHaveLength(3)
  })
})
