// The integrations made stateful (docs/behaviour.md §11): list, list active, create, update and delete,
// over the same records set-primary (§2.3) and the credential upsert (§2.1.2) read.
import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { MockServer } from '../../src/app/create-mock-server.ts'
import type { StoredIntegration } from '../../src/store/records.ts'
import { expectNovuContract } from '../helpers/expect-novu-contract.ts'
import { readState } from '../helpers/read-state.ts'
import { freshTenant, startTestServer } from '../helpers/start-test-server.ts'
import { ADA, INTEGRATIONS } from '../helpers/well-known.ts'

type Auth = ReturnType<typeof freshTenant>

let server: MockServer
beforeAll(async () => {
  server = await startTestServer()
})
afterAll(() => server.close())

const api = () => request(server.url)
const create = (auth: Auth, body: object) => api().post('/v1/integrations').set(auth).send(body)
const update = (auth: Auth, id: string, body: object) => api().put(`/v1/integrations/${id}`).set(auth).send(body)
const remove = (auth: Auth, id: string) => api().delete(`/v1/integrations/${id}`).set(auth)
const list = (auth: Auth) => api().get('/v1/integrations').set(auth)

/** The stored channel's integrations: id → [active, primary, priority]. */
async function channelOf(auth: Auth, channel: string): Promise<Record<string, [boolean, boolean, number]>> {
  const state = await readState(server.url, auth)
  return Object.fromEntries(
    state.integrations.filter((i: StoredIntegration) => i.channel === channel && !i.deleted).map((i) => [i._id, [i.active, i.primary, i.priority]]),
  )
}

describe('GET /v1/integrations and /v1/integrations/active', () => {
  it('answer the tenant’s integrations, credentials hidden; the active list only the active ones', async () => {
    const auth = freshTenant()
    const all = await list(auth)
    expect(all.status).toBe(200)
    await expectNovuContract('IntegrationsController_listIntegrations', all)
    expect(all.body.map((i: { _id: string }) => i._id)).toEqual(Object.values(INTEGRATIONS))
    expect(all.body.every((i: { credentials: object }) => JSON.stringify(i.credentials) === '{}')).toBe(true)
    const active = await api().get('/v1/integrations/active').set(auth)
    expect(active.status).toBe(200)
    await expectNovuContract('IntegrationsController_getActiveIntegrations', active)
    expect(active.body.map((i: { _id: string }) => i._id)).toEqual(Object.values(INTEGRATIONS).filter((id) => id !== INTEGRATIONS.ses && id !== INTEGRATIONS.apns))
  })
})

describe('POST /v1/integrations', () => {
  it('creates an inactive integration, named after the provider, identifier slug-suffixed, not primary, listed afterwards', async () => {
    const auth = freshTenant()
    const res = await create(auth, { providerId: 'mailjet' })
    expect(res.status).toBe(201)
    await expectNovuContract('IntegrationsController_createIntegration', res)
    expect(res.body).toMatchObject({ name: 'Mailjet', providerId: 'mailjet', channel: 'email', active: false, primary: false, deleted: false, credentials: {} })
    expect(res.body.identifier).toMatch(/^mailjet-[0-9A-Za-z_-]{7,14}$/)
    expect(res.body).not.toHaveProperty('priority')
    expect((await list(auth)).body.map((i: { _id: string }) => i._id)).toContain(res.body._id)
    expect((await channelOf(auth, 'email'))[res.body._id]).toEqual([false, false, 0])
  })

  it('an active email one when the channel’s top one is primary: takes its priority, not primary, the primary moves up', async () => {
    const auth = freshTenant()
    const res = await create(auth, { providerId: 'postmark', active: true, name: 'Mine', identifier: 'mine' })
    expect(res.status).toBe(201)
    expect(res.body).toMatchObject({ name: 'Mine', identifier: 'mine', active: true, primary: false })
    expect(await channelOf(auth, 'email')).toEqual({
      [INTEGRATIONS.sendgrid]: [true, true, 3],
      [INTEGRATIONS.mailgun]: [true, false, 1],
      [INTEGRATIONS.ses]: [false, false, 0],
      [res.body._id]: [true, false, 2],
    })
  })

  it('an active one in a channel with no primary becomes primary on top; in a channel without primaries priority 0', async () => {
    const auth = freshTenant()
    expect((await remove(auth, INTEGRATIONS.twilio)).status).toBe(200)
    const sms = await create(auth, { providerId: 'telnyx', active: true })
    expect(sms.body).toMatchObject({ name: 'Telnyx', channel: 'sms', primary: true })
    expect((await channelOf(auth, 'sms'))[sms.body._id]).toEqual([true, true, 2])
    const push = await create(auth, { providerId: 'expo', active: true })
    expect(push.body).toMatchObject({ channel: 'push', primary: false })
    expect((await channelOf(auth, 'push'))[push.body._id]).toEqual([true, false, 0])
  })

  it('keeps the configurations and conditions the records hold, drops the rest and the credentials', async () => {
    const auth = freshTenant()
    const conditions = [{ isNegated: false, type: 'BOOLEAN', value: 'AND', children: [{ field: 'tier', value: 'pro', operator: 'EQUAL', on: 'subscriber' }] }]
    const res = await create(auth, { providerId: 'twilio', credentials: { accountSid: 'AC1', token: 'secret' }, configurations: { inboundWebhookEnabled: true, other: 1 }, conditions })
    expect(res.status).toBe(201)
    await expectNovuContract('IntegrationsController_createIntegration', res)
    expect(res.body).toMatchObject({ configurations: { inboundWebhookEnabled: true }, conditions, credentials: {} })
    const stored = (await readState(server.url, auth)).integrations.find((i) => i._id === res.body._id)
    expect(stored).toMatchObject({ credentials: {}, configurations: { inboundWebhookEnabled: true } })
    expect(stored?.configurations).not.toHaveProperty('other')
  })

  it('refuses a missing providerId, a channel the records cannot hold, and an identifier taken', async () => {
    const auth = freshTenant()
    const none = await create(auth, { name: 'x' })
    expect(none.status).toBe(422)
    expect(none.body.errors.general.messages).toEqual(['providerId should not be null or undefined'])
    const tool = await create(auth, { providerId: 'tool-webhook', channel: 'tool' })
    expect(tool.status).toBe(422)
    expect(tool.body.errors.general.messages[0]).toMatch(/^channel must be one of the following values: in_app, email, sms, chat, push$/)
    const taken = await create(auth, { providerId: 'mailgun', identifier: 'mailgun' })
    expect(taken.status).toBe(409)
    expect(taken.body.message).toBe('Integration with identifier already exists')
    expect((await list(auth)).body).toHaveLength(Object.keys(INTEGRATIONS).length)
  })
})

describe('PUT /v1/integrations/{integrationId}', () => {
  it('updates the fields sent; never makes a primary when activating; credentials hidden', async () => {
    const auth = freshTenant()
    const res = await update(auth, INTEGRATIONS.ses, { active: true, name: 'Amazon', credentials: { apiKey: 'secret' } })
    expect(res.status).toBe(200)
    await expectNovuContract('IntegrationsController_updateIntegrationById', res)
    expect(res.body).toMatchObject({ _id: INTEGRATIONS.ses, name: 'Amazon', active: true, primary: false, credentials: {} })
    expect(await channelOf(auth, 'email')).toEqual({
      [INTEGRATIONS.sendgrid]: [true, true, 3],
      [INTEGRATIONS.mailgun]: [true, false, 1],
      [INTEGRATIONS.ses]: [true, false, 2],
    })
  })

  it('deactivating clears primary and priority and renumbers the others n..1', async () => {
    const auth = freshTenant()
    await update(auth, INTEGRATIONS.ses, { active: true })
    const res = await update(auth, INTEGRATIONS.sendgrid, { active: false })
    expect(res.body).toMatchObject({ active: false, primary: false })
    expect(await channelOf(auth, 'email')).toEqual({
      [INTEGRATIONS.sendgrid]: [false, false, 0],
      [INTEGRATIONS.mailgun]: [true, false, 1],
      [INTEGRATIONS.ses]: [true, false, 2],
    })
  })

  it('conditions on the primary clear its primary flag', async () => {
    const auth = freshTenant()
    const conditions = [{ isNegated: false, type: 'BOOLEAN', value: 'AND', children: [{ field: 'tier', value: 'pro', operator: 'EQUAL', on: 'subscriber' }] }]
    const res = await update(auth, INTEGRATIONS.sendgrid, { conditions })
    expect(res.body).toMatchObject({ primary: false, conditions })
  })

  it('answers 400 to an empty body, 409 to an identifier taken, 404 to an unknown or deleted integration', async () => {
    const auth = freshTenant()
    const empty = await update(auth, INTEGRATIONS.mailgun, {})
    expect(empty.status).toBe(400)
    expect(empty.body.message).toBe('No properties found for update')
    const taken = await update(auth, INTEGRATIONS.mailgun, { identifier: 'sendgrid' })
    expect([taken.status, taken.body.message]).toEqual([409, 'Integration with identifier already exists'])
    const unknown = await update(auth, '64f1000000000000000000ff', { name: 'x' })
    expect(unknown.status).toBe(404)
    expect(unknown.body.message).toBe('Entity with id 64f1000000000000000000ff not found')
    await remove(auth, INTEGRATIONS.mailgun)
    expect((await update(auth, INTEGRATIONS.mailgun, { name: 'x' })).status).toBe(404)
  })
})

describe('DELETE /v1/integrations/{integrationId}', () => {
  it('soft-deletes: the remaining list answered, the flag kept in the state, no credentials taken, set-primary 404', async () => {
    const auth = freshTenant()
    const res = await remove(auth, INTEGRATIONS.fcm)
    expect(res.status).toBe(200)
    await expectNovuContract('IntegrationsController_removeIntegration', res)
    expect(res.body.map((i: { _id: string }) => i._id)).toEqual(Object.values(INTEGRATIONS).filter((id) => id !== INTEGRATIONS.fcm))
    const stored = (await readState(server.url, auth)).integrations.find((i) => i._id === INTEGRATIONS.fcm)
    expect(stored).toMatchObject({ deleted: true })
    expect(stored?.deletedAt).toEqual(expect.any(String))
    const credentials = await api().patch(`/v1/subscribers/${ADA}/credentials`).set(auth).send({ providerId: 'fcm', credentials: { deviceTokens: ['t'] } })
    expect(credentials.status).toBe(400)
    expect(credentials.body.message).toMatch(/do not have active fcm integration\.$/)
    const primary = await api().post(`/v1/integrations/${INTEGRATIONS.fcm}/set-primary`).set(auth)
    expect(primary.status).toBe(404)
    expect((await remove(auth, INTEGRATIONS.fcm)).status).toBe(404)
  })
})

describe('sequence: a created email integration made primary, then deleted (issue 56)', () => {
  it('is not primary on creation, becomes the one primary, and leaves no primary once deleted', async () => {
    const auth = freshTenant()
    const created = await create(auth, { providerId: 'resend', active: true })
    expect(created.body.primary).toBe(false)
    const id = created.body._id as string
    expect(await channelOf(auth, 'email')).toMatchObject({ [INTEGRATIONS.sendgrid]: [true, true, 3], [id]: [true, false, 2] })
    const primary = await api().post(`/v1/integrations/${id}/set-primary`).set(auth)
    expect(primary.status).toBe(200)
    const afterPrimary = (await list(auth)).body.filter((i: { channel: string; primary: boolean }) => i.channel === 'email' && i.primary)
    expect(afterPrimary.map((i: { _id: string }) => i._id)).toEqual([id])
    expect((await remove(auth, id)).status).toBe(200)
    const left = (await list(auth)).body as { _id: string; channel: string; primary: boolean }[]
    expect(left.map((i) => i._id)).not.toContain(id)
    expect(left.filter((i) => i.channel === 'email' && i.primary)).toEqual([])
  })
})
