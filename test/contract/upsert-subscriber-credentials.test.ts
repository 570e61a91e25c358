import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { components } from '../../src/contract/generated/openapi-types.ts'
import type { MockServer } from '../../src/app/create-mock-server.ts'
import { expectContract } from '../helpers/expect-contract.ts'
import { freshTenant, startTestServer } from '../helpers/start-test-server.ts'
import { ADA, GRACE, INTEGRATIONS } from '../helpers/well-known.ts'

type Subscriber = components['schemas']['Subscriber']
type Auth = { Authorization: string }

const FCM_ID = INTEGRATIONS.fcm
const SLACK_ID = INTEGRATIONS.slack
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

/** The v1 answer is the stored entity with `__v`; GET v2 leaves `__v` out (docs/behaviour.md §2.2). */
function asV2(v1: Subscriber): Subscriber {
  expect(v1.__v, 'the v1 answer keeps __v').toBeTypeOf('number')
  const { __v: _version, ...v2 } = v1
  return v2
}

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
    const before = await readBack(auth, GRACE)
    const res = await upsert(auth, GRACE, body, 400)
    expect(res.body.message).toBe(`Subscribers environment (${before._environmentId}) do not have active ${providerId} integration.`)
    expect(await readBack(auth, GRACE)).toEqual(before)
  })

  it.each([
    ['providerId outside the enum', { providerId: 'sendgrid', credentials: { deviceTokens: ['t'] } }, ['providerId must be a valid provider ID']],
    ['deviceTokens as a string', { providerId: 'fcm', credentials: { deviceTokens: 'x' } }, ['credentials.deviceTokens must be an array']],
    ['a token that is a number', { providerId: 'fcm', credentials: { deviceTokens: [1, 't', 2] } }, ['each value in credentials.deviceTokens must be a string']],
    ['credentials missing', { providerId: 'fcm' }, ['credentials should not be null or undefined']],
    ['credentials not an object', { providerId: 'fcm', credentials: 'x' }, ['credentials must be an object']],
    ['webhookUrl a number', { providerId: 'slack', credentials: { webhookUrl: 1 } }, ['credentials.webhookUrl must be a string']],
    ['both required fields missing', {}, ['providerId should not be null or undefined', 'credentials should not be null or undefined']],
  ])('answers 422 for %s and changes nothing', async (_name, body, messages) => {
    const auth = freshTenant()
    const before = await readBack(auth, ADA)
    const res = await upsert(auth, ADA, body, 422)
    expect(res.body.message).toBe('Validation Error')
    expect(res.body.errors).toEqual({ general: { messages, value: 'No Value Recorded' } })
    expect(await readBack(auth, ADA)).toEqual(before)
  })

  it('answers 400 above 100 device tokens in the channel after the merge, and changes nothing', async () => {
    const auth = freshTenant()
    const before = await readBack(auth, ADA)
    const tokens = Array.from({ length: 100 }, (_, i) => `t-${i}`) // with the seeded one: 101
    const res = await upsert(auth, ADA, { providerId: 'fcm', credentials: { deviceTokens: tokens } }, 400)
    expect(res.body.message).toBe('Device tokens limit exceeded. Maximum allowed tokens per subscriber channel is 100, but got 101 tokens.')
    expect(await readBack(auth, ADA)).toEqual(before)
  })

  it('accepts exactly 100 device tokens in the channel, repeats counted once', async () => {
    const auth = freshTenant()
    const tokens = Array.from({ length: 99 }, (_, i) => `t-${i}`)
    const res = await upsert(auth, ADA, { providerId: 'fcm', credentials: { deviceTokens: [...tokens, ...tokens, 'fcm-token-ada-1'] } })
    expect(channelOf(res.body, 'fcm')?.credentials.deviceTokens).toHaveLength(100)
    await upsert(auth, ADA, { providerId: 'fcm', credentials: { deviceTokens: ['one-more'] } }, 400)
  })

  it('answers 400 for more than 100 tokens on a new channel entry', async () => {
    const auth = freshTenant()
    const tokens = Array.from({ length: 150 }, (_, i) => `t-${i}`)
    const res = await upsert(auth, GRACE, { providerId: 'fcm', credentials: { deviceTokens: tokens } }, 400)
    expect(res.body.message).toMatch(/but got 150 tokens\.$/)
    expect((await readBack(auth, GRACE)).channels).toEqual([])
  })

  it('treats an empty integrationIdentifier as none', async () => {
    const auth = freshTenant()
    const res = await upsert(auth, GRACE, { providerId: 'fcm', integrationIdentifier: '', credentials: { deviceTokens: ['x'] } })
    expect(res.body.channels).toEqual([{ providerId: 'fcm', _integrationId: FCM_ID, credentials: { deviceTokens: ['x'] } }])
  })
})

describe('PATCH /v1/subscribers/{subscriberId}/credentials: new entries', () => {
  it.each([
    ['fcm', { deviceTokens: ['g-1', 'g-2', 'g-1'] }, FCM_ID, { deviceTokens: ['g-1', 'g-2'] }],
    ['slack', { webhookUrl: 'https://hooks.example.com/grace' }, SLACK_ID, { webhookUrl: 'https://hooks.example.com/grace' }],
  ])('appends a %s entry to a subscriber without channels', async (providerId, credentials, integrationId, stored) => {
    const auth = freshTenant()
    const before = await readBack(auth, GRACE)
    expect(before.channels).toEqual([])
    const started = Date.now()
    const res = await upsert(auth, GRACE, { providerId, credentials })
    // The identifier only chooses the integration: the live service does not store it.
    const expected = [{ providerId, _integrationId: integrationId, credentials: stored }]
    expect(res.body.channels).toEqual(expected)
    expect(Date.parse(res.body.updatedAt)).toBeGreaterThanOrEqual(started - 1000)
    expect(res.body.createdAt).toBe(before.createdAt)
    const after = await readBack(auth, GRACE)
    expect(after).toEqual(asV2(res.body))
    expect(after.channels).toEqual(expected)
  })

  it('selects the integration named by integrationIdentifier', async () => {
    const auth = freshTenant()
    const res = await upsert(auth, GRACE, { providerId: 'fcm', integrationIdentifier: 'fcm', credentials: { deviceTokens: ['x'] } })
    expect(res.body.channels).toEqual([{ providerId: 'fcm', _integrationId: FCM_ID, credentials: { deviceTokens: ['x'] } }])
    expect(channelOf(await readBack(auth, GRACE), 'fcm')?._integrationId).toBe(FCM_ID)
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
    const res = await upsert(auth, GRACE, { providerId: 'slack', credentials })
    expect(channelOf(res.body, 'slack')?.credentials).toEqual({ webhookUrl: 'https://hooks.example.com/g', channel: 'general' })
    expect(channelOf(await readBack(auth, GRACE), 'slack')?.credentials).toEqual({
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
    const before = await readBack(auth, ADA)
    const res = await upsert(auth, ADA, { providerId: 'fcm', credentials })
    const after = await readBack(auth, ADA)
    expect(after).toEqual(asV2(res.body))
    expect(after.channels).toHaveLength(2)
    expect(channelOf(after, 'fcm')).toEqual({ providerId: 'fcm', _integrationId: FCM_ID, credentials: stored })
    expect(channelOf(after, 'slack')).toEqual(channelOf(before, 'slack'))
    expect(after.updatedAt).not.toBe(ADA_UPDATED_AT)
  })

  it('replaces webhookUrl on the slack entry and drops grafana fields', async () => {
    const auth = freshTenant()
    await upsert(auth, ADA, { providerId: 'slack', credentials: { webhookUrl: 'https://hooks.example.com/new', title: 't', alertUid: 'a' } })
    const after = await readBack(auth, ADA)
    expect(after.channels?.map((c) => c.providerId)).toEqual(['fcm', 'slack'])
    expect(channelOf(after, 'slack')).toEqual({
      providerId: 'slack',
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
    const before = await readBack(auth, ADA)
    const res = await upsert(auth, ADA, body)
    expect(asV2(res.body)).toEqual(before)
    expect(res.body.updatedAt).toBe(ADA_UPDATED_AT)
    expect(await readBack(auth, ADA)).toEqual(before)
  })

  it('moves updatedAt on a change and keeps it on the same change repeated', async () => {
    const auth = freshTenant()
    const first = await upsert(auth, ADA, { providerId: 'fcm', credentials: { deviceTokens: ['t-9'] } })
    expect(first.body.updatedAt).not.toBe(ADA_UPDATED_AT)
    expect(Date.parse(first.body.updatedAt)).toBeGreaterThan(Date.parse(ADA_UPDATED_AT))
    await new Promise((resolve) => setTimeout(resolve, 5))
    const again = await upsert(auth, ADA, { providerId: 'fcm', credentials: { deviceTokens: ['t-9'] } })
    expect(again.body).toEqual(first.body)
    const after = await readBack(auth, ADA)
    expect(after.updatedAt).toBe(first.body.updatedAt)
    expect(channelOf(after, 'fcm')?.credentials.deviceTokens).toEqual(['fcm-token-ada-1', 't-9'])
  })

  it('keeps every other field of the subscriber', async () => {
    const auth = freshTenant()
    const before = await readBack(auth, ADA)
    const res = await upsert(auth, ADA, { providerId: 'fcm', credentials: { deviceTokens: ['t-5'] } })
    const { channels: _c1, updatedAt: _u1, ...restBefore } = before
    const { channels: _c2, updatedAt: _u2, ...restAfter } = asV2(res.body as Subscriber)
    expect(restAfter).toEqual(restBefore)
  })
})
