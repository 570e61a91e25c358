import express from 'express'
import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createApp } from '../../src/app/create-app.ts'
import type { MockServer } from '../../src/app/create-mock-server.ts'
import { expectContract } from '../helpers/expect-contract.ts'
import { freshTenant, startTestServer } from '../helpers/start-test-server.ts'
import { ADA, adaMessage, GRACE, INTEGRATIONS } from '../helpers/well-known.ts'

type Auth = { Authorization: string }

const CREDENTIALS = `/v1/subscribers/${ADA}/credentials`
const MARK_AS = `/v1/subscribers/${ADA}/messages/mark-as`
const MESSAGE = adaMessage(6) // seen and unread in the seed

let server: MockServer
beforeAll(async () => {
  server = await startTestServer()
})
afterAll(() => server.close())

const newKey = () => `key-${crypto.randomUUID()}`

function patchCredentials(auth: Auth, key: string | undefined, body: object, path = CREDENTIALS) {
  const req = request(server.url).patch(path).set(auth)
  return (key === undefined ? req : req.set('Idempotency-Key', key)).send(body)
}

function markAs(auth: Auth, key: string | undefined, body: object, path = MARK_AS) {
  const req = request(server.url).post(path).set(auth)
  return (key === undefined ? req : req.set('Idempotency-Key', key)).send(body)
}

async function fcmTokens(auth: Auth): Promise<string[]> {
  const res = await request(server.url).get(`/v2/subscribers/${ADA}`).set(auth)
  expect(res.status).toBe(200)
  await expectContract('getSubscriber', res)
  return res.body.channels.find((c: { providerId: string }) => c.providerId === 'fcm').credentials.deviceTokens
}

describe('idempotent replay', () => {
  it('replays a credentials upsert without applying it twice', async () => {
    const auth = freshTenant()
    const key = newKey()
    const first = await patchCredentials(auth, key, { providerId: 'fcm', credentials: { deviceTokens: ['t-a'] } })
    expect(first.status).toBe(200)
    expect(first.headers['idempotency-key']).toBe(key)
    expect(first.headers['idempotency-replay']).toBeUndefined()
    await expectContract('upsertSubscriberCredentials', first)

    const other = await patchCredentials(auth, newKey(), { providerId: 'fcm', credentials: { deviceTokens: ['t-b'] } })
    expect(other.status).toBe(200)
    expect(other.headers['idempotency-replay']).toBeUndefined()

    const replay = await patchCredentials(auth, key, { providerId: 'fcm', credentials: { deviceTokens: ['t-a'] } })
    expect(replay.status).toBe(200)
    expect(replay.body).toEqual(first.body)
    expect(replay.headers['idempotency-key']).toBe(key)
    expect(replay.headers['idempotency-replay']).toBe('true')
    await expectContract('upsertSubscriberCredentials', replay)
    expect(await fcmTokens(auth)).toEqual(['fcm-token-ada-1', 't-a', 't-b'])
  })

  it('replays a mark-as without undoing a later change', async () => {
    const auth = freshTenant()
    const key = newKey()
    const read = await markAs(auth, key, { messageId: MESSAGE, markAs: 'read' })
    expect(read.status).toBe(201)
    expect(read.body[0]).toMatchObject({ _id: MESSAGE, read: true, seen: true })

    const unread = await markAs(auth, newKey(), { messageId: MESSAGE, markAs: 'unread' })
    expect(unread.status).toBe(201)
    expect(unread.body[0].read).toBe(false)

    const replay = await markAs(auth, key, { messageId: MESSAGE, markAs: 'read' })
    expect(replay.status).toBe(201)
    expect(replay.text).toBe(read.text)
    expect(replay.headers['idempotency-replay']).toBe('true')
    await expectContract('markMessagesAs', replay)

    // `seen` leaves `read` alone: it shows the state the replay did not touch.
    const check = await markAs(auth, undefined, { messageId: MESSAGE, markAs: 'seen' })
    expect(check.status).toBe(201)
    expect(check.body[0]).toMatchObject({ _id: MESSAGE, read: false, seen: true })
  })

  it.each([
    ['400 of an unknown subscriber (credentials)', 'upsertSubscriberCredentials', 400, (auth: Auth, key: string) =>
      patchCredentials(auth, key, { providerId: 'fcm', credentials: { deviceTokens: ['x'] } }, '/v1/subscribers/nobody/credentials')],
    ['400 of a missing integration (credentials)', 'upsertSubscriberCredentials', 400, (auth: Auth, key: string) =>
      patchCredentials(auth, key, { providerId: 'pushpad', credentials: { deviceTokens: ['x'] } })],
    ['404 of an unknown subscriber (mark-as)', 'markMessagesAs', 404, (auth: Auth, key: string) =>
      markAs(auth, key, { messageId: MESSAGE, markAs: 'read' }, '/v1/subscribers/nobody/messages/mark-as')],
    ['400 of more than 100 device tokens (credentials)', 'upsertSubscriberCredentials', 400, (auth: Auth, key: string) =>
      patchCredentials(auth, key, { providerId: 'fcm', credentials: { deviceTokens: Array.from({ length: 101 }, (_, i) => `t${i}`) } })],
    ['422 of an empty messageId (mark-as)', 'markMessagesAs', 422, (auth: Auth, key: string) => markAs(auth, key, { messageId: '', markAs: 'read' })],
    ['422 of a document violation (mark-as)', 'markMessagesAs', 422, (auth: Auth, key: string) => markAs(auth, key, { messageId: MESSAGE, markAs: 'done' })],
  ])('replays a stored %s, timestamp and all', async (_name, operationId, status, send) => {
    const auth = freshTenant()
    const key = newKey()
    const first = await send(auth, key)
    expect(first.status).toBe(status)
    expect(first.headers['idempotency-replay']).toBeUndefined()
    await new Promise((resolve) => setTimeout(resolve, 5))
    const replay = await send(auth, key)
    expect(replay.status).toBe(status)
    expect(replay.text).toBe(first.text)
    expect(replay.headers['idempotency-key']).toBe(key)
    expect(replay.headers['idempotency-replay']).toBe('true')
    await expectContract(operationId, replay)
  })

  it('does not replay a stored 4xx once the key is done: a fresh key gets a fresh answer', async () => {
    const auth = freshTenant()
    const first = await markAs(auth, newKey(), { messageId: MESSAGE, markAs: 'read' }, '/v1/subscribers/nobody/messages/mark-as')
    expect(first.status).toBe(404)
    await new Promise((resolve) => setTimeout(resolve, 5))
    const fresh = await markAs(auth, newKey(), { messageId: MESSAGE, markAs: 'read' }, '/v1/subscribers/nobody/messages/mark-as')
    expect(fresh.status).toBe(404)
    expect(fresh.body.timestamp).not.toBe(first.body.timestamp)
    expect(fresh.headers['idempotency-replay']).toBeUndefined()
  })
})

describe('idempotency key rules', () => {
  it.each([
    ['a different body', { providerId: 'fcm', credentials: { deviceTokens: ['t-2'] } }, CREDENTIALS],
    ['a different path', { providerId: 'fcm', credentials: { deviceTokens: ['t-1'] } }, `/v1/subscribers/${GRACE}/credentials`],
  ])('answers 422 when a key is reused for %s, and changes nothing', async (_name, body, path) => {
    const auth = freshTenant()
    const key = newKey()
    expect((await patchCredentials(auth, key, { providerId: 'fcm', credentials: { deviceTokens: ['t-1'] } })).status).toBe(200)
    const res = await patchCredentials(auth, key, body, path)
    const message = `Request with key "${key}" is being reused for a different body`
    expect(res.status).toBe(422)
    expect(res.body.message).toBe(message)
    expect(res.body.errors.general).toEqual({ messages: [message], value: 'No Value Recorded' })
    expect(res.headers.link).toBe('https://docs.novu.co/additional-resources/idempotency')
    expect(res.headers['idempotency-key']).toBe(key)
    expect(res.headers['idempotency-replay']).toBeUndefined()
    await expectContract('upsertSubscriberCredentials', res)
    expect(await fcmTokens(auth)).toEqual(['fcm-token-ada-1', 't-1'])
    const grace = await request(server.url).get(`/v2/subscribers/${GRACE}`).set(auth)
    expect(grace.body.channels).toEqual([])
  })

  it('takes the body as sent for the fingerprint: the same JSON spaced differently is another body', async () => {
    const auth = freshTenant()
    const key = newKey()
    const send = (text: string) => request(server.url).patch(CREDENTIALS).set(auth).set('Idempotency-Key', key).type('json').send(text)
    const compact = '{"providerId":"fcm","credentials":{"deviceTokens":["t-1"]}}'
    expect((await send(compact)).status).toBe(200)
    expect((await send(compact)).headers['idempotency-replay']).toBe('true')
    const spaced = await send('{ "providerId": "fcm", "credentials": { "deviceTokens": ["t-1"] } }')
    expect(spaced.status).toBe(422)
    await expectContract('upsertSubscriberCredentials', spaced)
    expect(await fcmTokens(auth)).toEqual(['fcm-token-ada-1', 't-1'])
  })

  it('tells bodies apart behind an app that parsed them first (the mock mounted in an express app)', async () => {
    const mock = await createApp({ logLevel: 'silent' })
    const outer = express().use(express.json()).use((req, res) => mock(req, res))
    const auth = freshTenant()
    const key = newKey()
    const send = (token: string) => request(outer).patch(CREDENTIALS).set(auth).set('Idempotency-Key', key).send({ providerId: 'fcm', credentials: { deviceTokens: [token] } })
    expect((await send('t-9')).status).toBe(200)
    const replay = await send('t-9')
    expect(replay.status).toBe(200)
    expect(replay.headers['idempotency-replay']).toBe('true')
    await expectContract('upsertSubscriberCredentials', replay)
    expect((await send('t-10')).status).toBe(422)
  })

  it('treats an empty key as no key: each call runs, nothing is echoed or replayed', async () => {
    const auth = freshTenant()
    const first = await patchCredentials(auth, '', { providerId: 'fcm', credentials: { deviceTokens: ['t-1'] } })
    expect(first.status).toBe(200)
    expect(first.headers['idempotency-key']).toBeUndefined()
    const other = await patchCredentials(auth, '', { providerId: 'fcm', credentials: { deviceTokens: ['t-2'] } })
    expect(other.status).toBe(200)
    expect(other.headers['idempotency-replay']).toBeUndefined()
    expect(await fcmTokens(auth)).toEqual(['fcm-token-ada-1', 't-1', 't-2'])
  })

  it('answers 400 for a key of 256 characters and accepts one of 255', async () => {
    const auth = freshTenant()
    const long = 'k'.repeat(256)
    const refused = await patchCredentials(auth, long, { providerId: 'fcm', credentials: { deviceTokens: ['t-long'] } })
    expect(refused.status).toBe(400)
    expect(refused.body.message).toBe(`idempotencyKey "${long}" has exceeded the maximum allowed length of 255 characters`)
    await expectContract('upsertSubscriberCredentials', refused)
    expect(await fcmTokens(auth)).toEqual(['fcm-token-ada-1'])

    const limit = 'k'.repeat(255)
    const accepted = await patchCredentials(auth, limit, { providerId: 'fcm', credentials: { deviceTokens: ['t-long'] } })
    expect(accepted.status).toBe(200)
    expect(accepted.headers['idempotency-key']).toBe(limit)
    await expectContract('upsertSubscriberCredentials', accepted)
    expect(await fcmTokens(auth)).toEqual(['fcm-token-ada-1', 't-long'])
  })

  it('answers 400 for a long key on mark-as too', async () => {
    const long = 'm'.repeat(300)
    const res = await markAs(freshTenant(), long, { messageId: MESSAGE, markAs: 'read' })
    expect(res.status).toBe(400)
    expect(res.body.message).toBe(`idempotencyKey "${long}" has exceeded the maximum allowed length of 255 characters`)
    await expectContract('markMessagesAs', res)
  })

  it('scopes keys to the tenant: the same key under another key proceeds', async () => {
    const [a, b] = [freshTenant(), freshTenant()]
    const key = newKey()
    expect((await patchCredentials(a, key, { providerId: 'fcm', credentials: { deviceTokens: ['a'] } })).status).toBe(200)
    const res = await patchCredentials(b, key, { providerId: 'fcm', credentials: { deviceTokens: ['b'] } })
    expect(res.status).toBe(200)
    expect(res.headers['idempotency-replay']).toBeUndefined()
    expect(await fcmTokens(b)).toEqual(['fcm-token-ada-1', 'b'])
  })

  it('echoes the key on set-primary, which takes no body', async () => {
    const auth = freshTenant()
    const key = newKey()
    const path = `/v1/integrations/${INTEGRATIONS.mailgun}/set-primary`
    const first = await request(server.url).post(path).set(auth).set('Idempotency-Key', key)
    expect(first.status).toBe(200)
    expect(first.headers['idempotency-key']).toBe(key)
    await expectContract('setPrimaryIntegration', first)
    const replay = await request(server.url).post(path).set(auth).set('Idempotency-Key', key)
    expect(replay.status).toBe(200)
    expect(replay.headers['idempotency-replay']).toBe('true')
    expect(replay.body).toEqual(first.body)
  })
})

describe('GET ignores the header', () => {
  it.each([
    ['getSubscriber', `/v2/subscribers/${ADA}`],
    ['listChannelConnections', '/v1/channel-connections'],
  ])('%s: no echo, no replay, no length check, no conflict with a later write', async (operationId, path) => {
    const auth = freshTenant()
    for (const key of ['same-key', 'same-key', 'g'.repeat(300)]) {
      const res = await request(server.url).get(path).set(auth).set('Idempotency-Key', key)
      expect(res.status).toBe(200)
      expect(res.headers['idempotency-key']).toBeUndefined()
      expect(res.headers['idempotency-replay']).toBeUndefined()
      await expectContract(operationId, res)
    }
    const write = await patchCredentials(auth, 'same-key', { providerId: 'fcm', credentials: { deviceTokens: ['w'] } })
    expect(write.status).toBe(200)
    expect(write.headers['idempotency-replay']).toBeUndefined()
    expect(await fcmTokens(auth)).toEqual(['fcm-token-ada-1', 'w'])
  })

  it('reads the state written after a GET with the same key', async () => {
    const auth = freshTenant()
    const before = await request(server.url).get(`/v2/subscribers/${ADA}`).set(auth).set('Idempotency-Key', 'k')
    expect(before.status).toBe(200)
    expect((await patchCredentials(auth, undefined, { providerId: 'fcm', credentials: { deviceTokens: ['later'] } })).status).toBe(200)
    const after = await request(server.url).get(`/v2/subscribers/${ADA}`).set(auth).set('Idempotency-Key', 'k')
    expect(after.status).toBe(200)
    expect(after.body).not.toEqual(before.body)
    expect(after.body.channels[0].credentials.deviceTokens).toEqual(['fcm-token-ada-1', 'later'])
  })
})
