import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { MockServer } from '../../src/app/create-mock-server.ts'
import { expectContract } from '../helpers/expect-contract.ts'
import { readState } from '../helpers/read-state.ts'
import { freshTenant, startTestServer } from '../helpers/start-test-server.ts'
import { GRACE, INTEGRATIONS } from '../helpers/well-known.ts'

/**
 * `providerId` takes the union of the interface's values and Novu 3.19's (docs/behaviour.md §2.1,
 * §2.4): the official SDK 3.19.1 sends these, and the live service accepts them.
 */
const NOVU_ONLY_CHAT_OR_PUSH = ['telegram', 'line', 'sendblue', 'webex-messaging', 'novu-slack']

let server: MockServer
beforeAll(async () => {
  server = await startTestServer()
})
afterAll(() => server.close())

const upsert = (auth: Record<string, string>, providerId: string) =>
  request(server.url).patch(`/v1/subscribers/${GRACE}/credentials`).set(auth).send({ providerId, credentials: { webhookUrl: 'https://hooks.example.com/grace', channel: 'general' } })

describe('providerId of the credentials upsert', () => {
  it.each(NOVU_ONLY_CHAT_OR_PUSH)('takes %s: a tenant without such an integration gets the live service’s 400, not a 422', async (providerId) => {
    const auth = freshTenant()
    const res = await upsert(auth, providerId)
    expect(res.status, JSON.stringify(res.body)).toBe(400)
    await expectContract('upsertSubscriberCredentials', res)
    expect(res.body.message).toMatch(new RegExp(`do not have active ${providerId} integration\\.$`))
  })

  it('stores the credentials of a telegram integration the tenant has', async () => {
    const auth = freshTenant()
    const state = await readState(server.url, auth)
    const slack = state.integrations.find((integration) => integration._id === INTEGRATIONS.slack)!
    const telegram = { ...slack, _id: '65f1000000000000000000aa', providerId: 'telegram', identifier: 'telegram-bot', name: 'Telegram', primary: false }
    expect((await request(server.url).put('/__admin/state').set(auth).send({ ...state, integrations: [...state.integrations, telegram] })).status).toBe(200)
    const res = await upsert(auth, 'telegram')
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    await expectContract('upsertSubscriberCredentials', res)
    expect(res.body.channels).toContainEqual({ providerId: 'telegram', _integrationId: telegram._id, credentials: { webhookUrl: 'https://hooks.example.com/grace', channel: 'general' } })
  })

  it('still refuses a value of neither list with the 422', async () => {
    const res = await upsert(freshTenant(), 'carrier-pigeon')
    expect(res.status).toBe(422)
    expect(res.body.errors.general.messages).toEqual(['providerId must be a valid provider ID'])
  })
})

describe('providerId of the channel connections list filter', () => {
  it.each([...NOVU_ONLY_CHAT_OR_PUSH, 'novu-email', 'anthropic', 'pagerduty', 'tool-webhook'])('takes %s', async (providerId) => {
    const res = await request(server.url).get('/v1/channel-connections').query({ providerId }).set(freshTenant())
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    await expectContract('listChannelConnections', res)
    expect(res.body.data).toEqual([])
  })
})
