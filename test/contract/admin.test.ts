import { once } from 'node:events'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createApp } from '../../src/app/create-app.ts'
import type { MockServer } from '../../src/app/create-mock-server.ts'
import type { TenantState } from '../../src/store/records.ts'
import { expectContract } from '../helpers/expect-contract.ts'
import { readState } from '../helpers/read-state.ts'
import { freshTenant, startTestServer } from '../helpers/start-test-server.ts'
import { ADA, adaMessage } from '../helpers/well-known.ts'

type Auth = ReturnType<typeof freshTenant>

let server: MockServer
beforeAll(async () => {
  server = await startTestServer()
})
afterAll(() => server.close())

const stateOf = (auth: Auth, url = server.url) => readState(url, auth)

/** A write through the API, so a tenant differs from its seed. */
async function markFirstRead(auth: Auth, url = server.url) {
  const res = await request(url).post(`/v1/subscribers/${ADA}/messages/mark-as`).set(auth).send({ messageId: adaMessage(1), markAs: 'read' })
  expect(res.status).toBe(201)
  await expectContract('markMessagesAs', res)
}

const putState = (auth: Auth, state: unknown) => request(server.url).put('/__admin/state').set(auth).send(state as object)

describe('GET /__admin/health', () => {
  it('answers without a key and validates against the admin document', async () => {
    const res = await request(server.url).get('/__admin/health')
    expect(res.status).toBe(200)
    await expectContract('getHealth', res, 'admin')
    expect(res.body.status).toBe('ok')
    expect(res.body.adminAccess).toBe('open')
  })
})

describe('GET /__admin/state', () => {
  it.each([
    ['no header', {}, 'Missing authorization header'],
    ['a Bearer header', { Authorization: 'Bearer x' }, 'Invalid authentication scheme: "Bearer"'],
  ])('answers 401 with %s', async (_case, headers, message) => {
    const res = await request(server.url).get('/__admin/state').set(headers)
    expect(res.status).toBe(401)
    await expectContract('getState', res, 'admin')
    expect(res.body.message).toBe(message)
  })

  it('holds the default seed with its internal fields', async () => {
    const state = await stateOf(freshTenant())
    expect(Object.keys(state).sort()).toEqual(['channelConnections', 'integrations', 'messages', 'subscribers'])
    expect(state.subscribers).toHaveLength(50)
    expect(state.integrations).toHaveLength(9)
    expect(state.channelConnections).toHaveLength(120)
    expect(state.messages).toHaveLength(253)
    for (const c of state.channelConnections) expect(c._id).toMatch(/^[0-9a-f]{24}$/)
    for (const i of state.integrations) expect(typeof i.priority).toBe('number')
  })
})

describe('PUT /__admin/state', () => {
  it('replaces the state: an edited firstName shows through the API', async () => {
    const auth = freshTenant()
    const state = await stateOf(auth)
    const target = state.subscribers[5]!
    target.firstName = 'Edited-by-admin'
    const res = await putState(auth, state)
    expect(res.status, JSON.stringify(Object.keys(res.body.errors ?? {}).slice(0, 3))).toBe(200)
    await expectContract('putState', res, 'admin')
    expect(res.body).toEqual({ subscribers: 50, integrations: 9, channelConnections: 120, messages: 253 })
    const api = await request(server.url).get(`/v2/subscribers/${target.subscriberId}`).set(auth)
    expect(api.status).toBe(200)
    await expectContract('getSubscriber', api)
    expect(api.body.firstName).toBe('Edited-by-admin')
    expect(await stateOf(auth)).toEqual(state)
  })

  type Breaker = (state: TenantState) => void
  it.each<[string, Breaker, string]>([
    ['two primaries in email', (s) => void (s.integrations[1]!.primary = true), 'integrations.1'],
    ['an inactive primary', (s) => void (s.integrations[0]!.active = false), 'integrations.0'],
    ['a duplicate message _id', (s) => void (s.messages[7]!._id = s.messages[3]!._id), 'messages.7'],
    ['a duplicate connection _id', (s) => void (s.channelConnections[9]!._id = s.channelConnections[2]!._id), 'channelConnections.9'],
    ['a subscriber whose firstName is a number', (s) => void Object.assign(s.subscribers[3]!, { firstName: 42 }), 'subscribers.3'],
    ['an integration with a negative priority', (s) => void (s.integrations[2]!.priority = -1), 'integrations.2'],
    ['a message with an unknown status', (s) => void Object.assign(s.messages[20]!, { status: 'lost' }), 'messages.20'],
    ['a connection without an _id', (s) => void delete (s.channelConnections[4] as { _id?: string })._id, 'channelConnections.4'],
  ])('answers 422 for %s, naming the record, and changes nothing', async (_case, breakState, record) => {
    const auth = freshTenant()
    await markFirstRead(auth)
    const before = await stateOf(auth)
    // Messages with a workflow are left out so that only the broken record can be named (the
    // full round trip is the test above); the tenant's current state must survive untouched.
    const broken = structuredClone(before)
    broken.messages = broken.messages.filter((m) => m.template === undefined)
    breakState(broken)
    const res = await putState(auth, broken)
    expect(res.status).toBe(422)
    await expectContract('putState', res, 'admin')
    const fields = Object.keys(res.body.errors as object)
    expect(fields.filter((f) => f === record || f.startsWith(`${record}.`)), JSON.stringify(fields)).not.toEqual([])
    expect(fields.every((f) => f === record || f.startsWith(`${record}.`)), JSON.stringify(fields)).toBe(true)
    expect(await stateOf(auth)).toEqual(before)
  })
})

describe('POST /__admin/reset', () => {
  it('restores the seed of the caller’s tenant only', async () => {
    const [a, b] = [freshTenant(), freshTenant()]
    const seed = await stateOf(freshTenant())
    await markFirstRead(a)
    await markFirstRead(b)
    const written = await stateOf(b)
    expect(written).not.toEqual(seed)
    const res = await request(server.url).post('/__admin/reset').set(a)
    expect(res.status).toBe(200)
    await expectContract('resetState', res, 'admin')
    expect(res.body).toEqual({ scope: 'tenant' })
    expect(await stateOf(a)).toEqual(seed)
    expect(await stateOf(b)).toEqual(written)
  })

  it('restores every tenant with ?all=true', async () => {
    const [a, b] = [freshTenant(), freshTenant()]
    const seed = await stateOf(freshTenant())
    await markFirstRead(a)
    await markFirstRead(b)
    const res = await request(server.url).post('/__admin/reset?all=true').set(a)
    expect(res.status).toBe(200)
    await expectContract('resetState', res, 'admin')
    expect(res.body).toEqual({ scope: 'all' })
    expect(await stateOf(a)).toEqual(seed)
    expect(await stateOf(b)).toEqual(seed)
  })
})

describe.each([
  ['without an admin token', undefined],
  ['with adminToken "secret"', 'secret'],
])('a server configured for host 0.0.0.0 %s', (_case, adminToken) => {
  // The app is told its host is public, but the test listens on loopback only.
  let open: Server
  let url: string
  beforeAll(async () => {
    const app = await createApp({ host: '0.0.0.0', adminToken, logLevel: 'silent' })
    open = createServer(app).listen(0, '127.0.0.1')
    await once(open, 'listening')
    url = `http://127.0.0.1:${(open.address() as AddressInfo).port}`
  })
  afterAll(() => new Promise<void>((resolve) => open.close(() => resolve())))

  it('still answers health without any header, and says whether the token is needed', async () => {
    const res = await request(url).get('/__admin/health')
    expect(res.status).toBe(200)
    await expectContract('getHealth', res, 'admin')
    expect(res.body.adminAccess).toBe(adminToken === undefined ? 'closed' : 'token')
  })

  const routes = [
    ['getState', 'get', '/__admin/state'],
    ['putState', 'put', '/__admin/state'],
    ['resetState', 'post', '/__admin/reset'],
    ['streamEvents', 'get', '/__admin/events'],
    ['listTenants', 'get', '/__admin/tenants'],
    ['pageChannelConnections', 'get', '/__admin/channel-connections'],
  ] as const

  it.each(routes)('hides %s (404) without the x-admin-token header, or with a wrong one', async (operationId, method, path) => {
    for (const headers of [{}, { 'x-admin-token': 'wrong' }, { 'x-admin-token': '' }]) {
      const res = await request(url)[method](path).set({ ...freshTenant(), ...headers }).send({})
      expect(res.status).toBe(404)
      await expectContract(operationId, res, 'admin')
      expect(res.body.message).toBe(`Cannot ${method.toUpperCase()} ${path}`)
    }
  })

  it.runIf(adminToken !== undefined)('answers the admin routes when the token is sent', async () => {
    const auth = { ...freshTenant(), 'x-admin-token': adminToken! }
    const state = await request(url).get('/__admin/state').set(auth)
    expect(state.status).toBe(200)
    await expectContract('getState', state, 'admin')
    expect(state.body.messages).toHaveLength(253)
    await markFirstRead(auth, url)
    const reset = await request(url).post('/__admin/reset').set(auth)
    expect(reset.status).toBe(200)
    await expectContract('resetState', reset, 'admin')
    const after = await request(url).get('/__admin/state').set(auth)
    expect(after.status).toBe(200)
    expect(after.body).toEqual(state.body)
  })

  it('serves the inspector page and its files without the token: they hold no data', async () => {
    for (const path of ['/__admin/ui', '/__admin/ui/inspector.js', '/__admin/ui/inspector.css']) {
      expect((await request(url).get(path)).status, path).toBe(200)
    }
    expect((await request(url).get('/__admin/ui/missing.js')).status).toBe(404)
  })

  it('keeps the API itself reachable', async () => {
    const res = await request(url).get(`/v2/subscribers/${ADA}`).set(freshTenant())
    expect(res.status).toBe(200)
    await expectContract('getSubscriber', res)
  })
})
