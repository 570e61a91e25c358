// Channel connections made stateful (docs/behaviour.md §11): get, create, patch and delete by identifier,
// over the tenant's integrations and subscribers; the list of §2.4 shows what they did.
import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { MockServer } from '../../src/app/create-mock-server.ts'
import { expectNovuContract } from '../helpers/expect-novu-contract.ts'
import { freshTenant, startTestServer } from '../helpers/start-test-server.ts'
import { ADA, GRACE } from '../helpers/well-known.ts'

type Auth = ReturnType<typeof freshTenant>

let server: MockServer
beforeAll(async () => {
  server = await startTestServer()
})
afterAll(() => server.close())

const PATH = '/v1/channel-connections'
const BODY = { integrationIdentifier: 'slack', subscriberId: ADA, workspace: { id: 'T1', name: 'Acme' }, auth: { accessToken: 'xoxb-1' } }
const create = (auth: Auth, body: object = BODY) => request(server.url).post(PATH).set(auth).send(body)
const get = (auth: Auth, identifier: string) => request(server.url).get(`${PATH}/${identifier}`).set(auth)
const listed = async (auth: Auth, query: string) => ((await request(server.url).get(`${PATH}?${query}`).set(auth)).body.data as { identifier: string }[]).map((c) => c.identifier)

describe('POST /v1/channel-connections', () => {
  it('creates a connection with the integration’s channel and provider, a generated identifier, readable by GET', async () => {
    const auth = freshTenant()
    const res = await create(auth, { ...BODY, context: { tenant: 'org-1', region: { id: 'eu' } } })
    expect(res.status).toBe(201)
    await expectNovuContract('ChannelConnectionsController_createChannelConnection', res)
    expect(res.body).toMatchObject({ channel: 'chat', providerId: 'slack', integrationIdentifier: 'slack', subscriberId: ADA, contextKeys: ['tenant:org-1', 'region:eu'], workspace: { id: 'T1', name: 'Acme' }, auth: { accessToken: 'xoxb-1' } })
    expect(res.body.identifier).toMatch(/^chconn_[0-9a-z]{12}$/)
    expect(res.body).not.toHaveProperty('_id')
    const read = await get(auth, res.body.identifier)
    expect(read.status).toBe(200)
    await expectNovuContract('ChannelConnectionsController_getChannelConnectionByIdentifier', read)
    expect(read.body).toEqual(res.body)
  })

  it('keeps no subscriber on a shared connection', async () => {
    const res = await create(freshTenant(), { ...BODY, identifier: 'shared-1', connectionMode: 'shared', context: { tenant: 'org-1' } })
    expect(res.status).toBe(201)
    expect(res.body).toMatchObject({ identifier: 'shared-1', subscriberId: null })
  })

  it('refuses an unknown integration or subscriber (404), a taken identifier and a second context-free one for a subscriber (409)', async () => {
    const auth = freshTenant()
    const sixContexts = await create(auth, { ...BODY, context: Object.fromEntries(['a', 'b', 'c', 'd', 'e', 'f'].map((k) => [k, 'x'])) })
    expect(sixContexts.status).toBe(422)
    expect(sixContexts.body.errors.general.messages).toEqual(['context must not have more than 5 entries'])
    const noIntegration = await create(auth, { ...BODY, integrationIdentifier: 'nope' })
    expect([noIntegration.status, noIntegration.body.message]).toEqual([404, 'Integration not found: nope'])
    const noSubscriber = await create(auth, { ...BODY, subscriberId: 'nobody' })
    expect([noSubscriber.status, noSubscriber.body.message]).toEqual([404, 'Subscriber not found: nobody'])
    const first = await create(auth, { ...BODY, identifier: 'mine' })
    expect(first.status).toBe(201)
    const inContext = await create(auth, { ...BODY, identifier: 'mine-in-context', context: { tenant: 'org-1' } })
    expect(inContext.status).toBe(201)
    const sameContext = await create(auth, { ...BODY, identifier: 'other', context: { tenant: 'org-1' } })
    expect(sameContext.status).toBe(409)
    expect(sameContext.body.message).toBe(`A channel connection already exists for integration "slack" with subscriberId "${ADA}" and context [tenant:org-1]. Connection ID: mine-in-context`)
    const taken = await create(auth, { ...BODY, subscriberId: GRACE, identifier: 'mine' })
    expect(taken.status).toBe(409)
    expect(taken.body.message).toMatch(/^Channel connection with identifier "mine" already exists in environment "[0-9a-f]{24}"$/)
    const twice = await create(auth, { ...BODY, identifier: 'again' })
    expect(twice.status).toBe(409)
    expect(twice.body.message).toBe(`A channel connection already exists for integration "slack" with subscriberId "${ADA}" and no context. Connection ID: mine`)
  })
})

describe('PATCH, GET and DELETE /v1/channel-connections/{identifier}', () => {
  it('replaces workspace and auth; 404s in the live service’s quotes', async () => {
    const auth = freshTenant()
    await create(auth, { ...BODY, identifier: 'c1' })
    const res = await request(server.url).patch(`${PATH}/c1`).set(auth).send({ workspace: { id: 'T2' }, auth: { accessToken: 'xoxb-2' } })
    expect(res.status).toBe(200)
    await expectNovuContract('ChannelConnectionsController_updateChannelConnection', res)
    expect(res.body).toMatchObject({ identifier: 'c1', workspace: { id: 'T2' }, auth: { accessToken: 'xoxb-2' } })
    expect(res.body.workspace).not.toHaveProperty('name')
    expect((await get(auth, 'c1')).body.workspace).toEqual({ id: 'T2' })
    const patchMissing = await request(server.url).patch(`${PATH}/none`).set(auth).send({ workspace: { id: 'T2' }, auth: { accessToken: 'x' } })
    expect([patchMissing.status, patchMissing.body.message]).toEqual([404, 'Channel connection with identifier "none" not found'])
    const getMissing = await get(auth, 'none')
    expect([getMissing.status, getMissing.body.message]).toEqual([404, "Channel connection with identifier 'none' not found"])
  })
})

describe('sequence: a connection for a seeded integration and subscriber, listed, then deleted (issue 56)', () => {
  it('appears in §2.4’s list filtered by the subscriber, and leaves it once deleted (204)', async () => {
    const auth = freshTenant()
    const before = await listed(auth, `subscriberId=${GRACE}&limit=100`)
    const created = await create(auth, { ...BODY, subscriberId: GRACE, identifier: 'grace-slack' })
    expect(created.status).toBe(201)
    expect(await listed(auth, `subscriberId=${GRACE}&limit=100`)).toEqual(['grace-slack', ...before])
    expect(await listed(auth, 'integrationIdentifier=slack&limit=1')).toEqual(['grace-slack'])
    const removed = await request(server.url).delete(`${PATH}/grace-slack`).set(auth)
    expect(removed.status).toBe(204)
    expect(removed.text).toBe('')
    expect(await listed(auth, `subscriberId=${GRACE}&limit=100`)).toEqual(before)
    const again = await request(server.url).delete(`${PATH}/grace-slack`).set(auth)
    expect([again.status, again.body.message]).toEqual([404, "Channel connection with identifier 'grace-slack' not found"])
  })
})
