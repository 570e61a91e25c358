import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { components } from '../../src/contract/openapi-types.ts'
import type { MockServer } from '../../src/server.ts'
import { expectContract } from '../helpers/expect-contract.ts'
import { freshTenant, startTestServer } from '../helpers/start-test-server.ts'

type Subscriber = components['schemas']['Subscriber']
type Auth = { Authorization: string }

const FCM_ID = '64f100000000000000000006'
const SLACK_ID = '64f100000000000000000007'
const ADA_SLACK_HOOK = 'https://hooks.slack.example.com/services/T000/B000/ada'
const ADA_UPDATED_AT = '2024-06-01T12:00:00.000Z'

let server: MockServer
beforeAll(async () => {
  server = await startTestServer()
})
afterAll(() => server.close())

async function upsert(auth: Auth, subscriberId: string, body: object, status = 200) {
  const res = await request(server.url).patch(`/v1/subscribers/${subscriberId}/credentials`).set(auth).send(body)
  expect(res.status, JSON.stringify(res.body)).toBe(status)
  await expectContract('upsertSubscriberCredentials', res)
  return res
}

async function readBack(auth: Auth, subscriberId: string): Promise<Subscriber> {
  const res = await request(server.url).get(`/v2/subscribers/${subscriberId}`).set(auth)
  expect(res.status).toBe(200)
  await expectContract('getSubscriber', res)
  return res.body as Subscriber
}

const channelOf = (subscriber: Subscriber, providerId: string) => subscriber.channels?.find((c) => c.providerId === providerId)

describe('PATCH /v1/subscribers/{subscriberId}/credentials: errors', () => {
  it('answers 400 for an unknown subscriber', async () => {
    const res = await upsert(freshTenant(), 'nobody', { providerId: 'fcm', credentials: { deviceTokens: ['t'] } }, 400)
    expect(res.body.message).toBe('SubscriberId: nobody not found')
    expect(res.body.statusCode).toBe(400)
    expect(res.body.path).toBe('/v1/subscribers/nobody/credentials')
  })

  it.each([
    ['apns (inactive integration)', { providerId: 'apns', credentials: { deviceTokens: ['t'] } }, 'apns'],
    ['pushpad (no integration)', { providerId: 'pushpad', credentials: { deviceTokens: ['t'] } }, 'pushpad'],
    ['fcm with a foreign identifier', { providerId: 'fcm', integrationIdentifier: 'sendgrid', credentials: { deviceTokens: ['t'] } }, 'fcm'],
    ['slack with an unknown identifier', { providerId: 'slack', integrationIdentifier: 'nope', credentials: { webhookUrl: 'https://x' } }, 'slack'],
    ['apns named by its own identifier', { providerId: 'apns', integrationIdentifier: 'apns', credentials: { deviceTokens: ['t'] } }, 'apns'],
  ])('answers 400 when there is no active integration: %s', async (_name, body, providerId) => {
    const auth = freshTenant()
    const before = await readBack(auth, 'demo-subscriber-2')
    const res = await upsert(auth, 'demo-subscriber-2', body, 400)
    expect(res.body.message).toBe(`Subscribers environment (${before._environmentId}) do not have active ${providerId} integration.`)
    expect(await readBack(auth, 'demo-subscriber-2')).toEqual(before)
  })

  it.each([
    ['providerId outside the enum', { providerId: 'sendgrid', credentials: { deviceTokens: ['t'] } }, 'providerId'],
    ['deviceTokens as a string', { providerId: 'fcm', credentials: { deviceTokens: 'x' } }, 'credentials.deviceTokens'],
    ['a token that is a number', { providerId: 'fcm', credentials: { deviceTokens: [1] } }, 'credentials.deviceTokens.0'],
    ['credentials missing', { providerId: 'fcm' }, 'credentials'],
  ])('answers 422 for %s and changes nothing', async (_name, body, field) => {
    const auth = freshTenant()
    const before = await readBack(auth, 'demo-subscriber-1')
    const res = await upsert(auth, 'demo-subscriber-1', body, 422)
    expect(res.body.message).toBe('Validation Error')
    expect(res.body.errors[field]?.messages.length, JSON.stringify(res.body.errors)).toBeGreaterThan(0)
    expect(await readBack(auth, 'demo-subscriber-1')).toEqual(before)
  })
})

describe('PATCH /v1/subscribers/{subscriberId}/credentials: new entries', () => {
  it.each([
    ['fcm', { deviceTokens: ['g-1', 'g-2', 'g-1'] }, FCM_ID, { deviceTokens: ['g-1', 'g-2'] }],
    ['slack', { webhookUrl: 'https://hooks.example.com/grace' }, SLACK_ID, { webhookUrl: 'https://hooks.example.com/grace' }],
  ])('appends a %s entry to a subscriber without channels', async (providerId, credentials, integrationId, stored) => {
    const auth = freshTenant()
    const before = await readBack(auth, 'demo-subscriber-2')
    expect(before.channels).toEqual([])
    const started = Date.now()
    const res = await upsert(auth, 'demo-subscriber-2', { providerId, credentials })
    const expected = [{ providerId, integrationIdentifier: providerId, _integrationId: integrationId, credentials: stored }]
    expect(res.body.channels).toEqual(expected)
    expect(Date.parse(res.body.updatedAt)).toBeGreaterThanOrEqual(started - 1000)
    expect(res.body.createdAt).toBe(before.createdAt)
    const after = await readBack(auth, 'demo-subscriber-2')
    expect(after).toEqual(res.body)
    expect(after.channels).toEqual(expected)
  })

  it('selects the integration named by integrationIdentifier', async () => {
    const auth = freshTenant()
    const res = await upsert(auth, 'demo-subscriber-2', { providerId: 'fcm', integrationIdentifier: 'fcm', credentials: { deviceTokens: ['x'] } })
    expect(res.body.channels).toEqual([{ providerId: 'fcm', integrationIdentifier: 'fcm', _integrationId: FCM_ID, credentials: { deviceTokens: ['x'] } }])
    expect(channelOf(await readBack(auth, 'demo-subscriber-2'), 'fcm')?._integrationId).toBe(FCM_ID)
  })

  it('stores only webhookUrl, channel and deviceTokens, dropping the other credential fields', async () => {
    const auth = freshTenant()
    const credentials = {
      webhookUrl: 'https://hooks.example.com/g',
      channel: 'general',
      title: 'Alert',
      alertUid: 'uid-1',
      imageUrl: 'https://img.example.com/a.png',
      state: 'ok',
      externalUrl: 'https://ext.example.com',
    }
    const res = await upsert(auth, 'demo-subscriber-2', { providerId: 'slack', credentials })
    expect(channelOf(res.body, 'slack')?.credentials).toEqual({ webhookUrl: 'https://hooks.example.com/g', channel: 'general' })
    expect(channelOf(await readBack(auth, 'demo-subscriber-2'), 'slack')?.credentials).toEqual({
      webhookUrl: 'https://hooks.example.com/g',
      channel: 'general',
    })
  })
})

describe('PATCH /v1/subscribers/{subscriberId}/credentials: merging into an existing entry', () => {
  it.each([
    ['appends new tokens after the old ones, deduplicated, order kept', { deviceTokens: ['t-2', 'fcm-token-ada-1', 't-3', 't-2'] }, { deviceTokens: ['fcm-token-ada-1', 't-2', 't-3'] }],
    ['clears the tokens on an explicit []', { deviceTokens: [] }, { deviceTokens: [] }],
    ['keeps the old tokens when none are sent', { channel: 'c-1' }, { deviceTokens: ['fcm-token-ada-1'], channel: 'c-1' }],
  ])('fcm: %s', async (_name, credentials, stored) => {
    const auth = freshTenant()
    const before = await readBack(auth, 'demo-subscriber-1')
    const res = await upsert(auth, 'demo-subscriber-1', { providerId: 'fcm', credentials })
    const after = await readBack(auth, 'demo-subscriber-1')
    expect(after).toEqual(res.body)
    expect(after.channels).toHaveLength(2)
    expect(channelOf(after, 'fcm')).toEqual({ providerId: 'fcm', integrationIdentifier: 'fcm', _integrationId: FCM_ID, credentials: stored })
    expect(channelOf(after, 'slack')).toEqual(channelOf(before, 'slack'))
    expect(after.updatedAt).not.toBe(ADA_UPDATED_AT)
  })

  it('replaces webhookUrl on the slack entry and drops grafana fields', async () => {
    const auth = freshTenant()
    await upsert(auth, 'demo-subscriber-1', { providerId: 'slack', credentials: { webhookUrl: 'https://hooks.example.com/new', title: 't', alertUid: 'a' } })
    const after = await readBack(auth, 'demo-subscriber-1')
    expect(after.channels?.map((c) => c.providerId)).toEqual(['fcm', 'slack'])
    expect(channelOf(after, 'slack')).toEqual({
      providerId: 'slack',
      integrationIdentifier: 'slack',
      _integrationId: SLACK_ID,
      credentials: { webhookUrl: 'https://hooks.example.com/new' },
    })
  })

  it.each([
    ['the seeded fcm token again', { providerId: 'fcm', credentials: { deviceTokens: ['fcm-token-ada-1'] } }],
    ['the seeded slack webhook again', { providerId: 'slack', credentials: { webhookUrl: ADA_SLACK_HOOK } }],
    ['only dropped fields', { providerId: 'slack', credentials: { title: 'ignored' } }],
    ['an empty credentials object', { providerId: 'fcm', credentials: {} }],
  ])('changes nothing, updatedAt included, for %s', async (_name, body) => {
    const auth = freshTenant()
    const before = await readBack(auth, 'demo-subscriber-1')
    const res = await upsert(auth, 'demo-subscriber-1', body)
    expect(res.body).toEqual(before)
    expect(res.body.updatedAt).toBe(ADA_UPDATED_AT)
    expect(await readBack(auth, 'demo-subscriber-1')).toEqual(before)
  })

  it('moves updatedAt on a change and keeps it on the same change repeated', async () => {
    const auth = freshTenant()
    const first = await upsert(auth, 'demo-subscriber-1', { providerId: 'fcm', credentials: { deviceTokens: ['t-9'] } })
    expect(first.body.updatedAt).not.toBe(ADA_UPDATED_AT)
    expect(Date.parse(first.body.updatedAt)).toBeGreaterThan(Date.parse(ADA_UPDATED_AT))
    await new Promise((resolve) => setTimeout(resolve, 5))
    const again = await upsert(auth, 'demo-subscriber-1', { providerId: 'fcm', credentials: { deviceTokens: ['t-9'] } })
    expect(again.body).toEqual(first.body)
    const after = await readBack(auth, 'demo-subscriber-1')
    expect(after.updatedAt).toBe(first.body.updatedAt)
    expect(channelOf(after, 'fcm')?.credentials.deviceTokens).toEqual(['fcm-token-ada-1', 't-9'])
  })

  it('keeps every other field of the subscriber', async () => {
    const auth = freshTenant()
    const before = await readBack(auth, 'demo-subscriber-1')
    const res = await upsert(auth, 'demo-subscriber-1', { providerId: 'fcm', credentials: { deviceTokens: ['t-5'] } })
    const { channels: _c1, updatedAt: _u1, ...restBefore } = before
    const { channels: _c2, updatedAt: _u2, ...restAfter } = res.body as Subscriber
    expect(restAfter).toEqual(restBefore)
  })
})
