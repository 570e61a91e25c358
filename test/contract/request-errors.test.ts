import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { MockServer } from '../../src/app/create-mock-server.ts'
import { createLogger } from '../../src/log/logger.ts'
import { expectContract, expectErrorDto } from '../helpers/expect-contract.ts'
import { freshTenant, startTestServer } from '../helpers/start-test-server.ts'
import { ADA, ADA_ID, adaMessage, INTEGRATIONS } from '../helpers/well-known.ts'

type Auth = { Authorization: string }

const CREDENTIALS = `/v1/subscribers/${ADA}/credentials`
const MARK_AS = `/v1/subscribers/${ADA}/messages/mark-as`
const MALFORMED = '{"providerId": "fcm", "credentials": '

let server: MockServer
beforeAll(async () => {
  server = await startTestServer()
})
afterAll(() => server.close())

/** The two operations that take a body, with a valid body each. */
const BODY_OPERATIONS = [
  { id: 'upsertSubscriberCredentials', method: 'patch', path: CREDENTIALS },
  { id: 'markMessagesAs', method: 'post', path: MARK_AS },
] as const

function sendRaw(method: 'patch' | 'post', path: string, auth: Auth | undefined, contentType: string, payload: string) {
  const req = request(server.url)[method](path).set('Content-Type', contentType)
  return (auth ? req.set(auth) : req).send(payload)
}

async function readAda(auth: Auth) {
  const res = await request(server.url).get(`/v2/subscribers/${ADA}`).set(auth)
  expect(res.status).toBe(200)
  await expectContract('getSubscriber', res)
  return res.body
}

describe('reading the body', () => {
  it.each(BODY_OPERATIONS)('$id: 400 naming the JSON problem for a malformed body', async ({ id, method, path }) => {
    const res = await sendRaw(method, path, freshTenant(), 'application/json', MALFORMED)
    expect(res.status).toBe(400)
    expect(res.body.message).toMatch(/JSON|Unexpected|position/i)
    await expectContract(id, res)
  })

  it.each(BODY_OPERATIONS)('$id: 413 for a body over 100 KB, nothing stored', async ({ id, method, path }) => {
    const auth = freshTenant()
    const payload = JSON.stringify({ providerId: 'fcm', messageId: 'x'.repeat(110_000), credentials: { deviceTokens: ['y'] }, markAs: 'read' })
    const res = await sendRaw(method, path, auth, 'application/json', payload)
    expect(res.status).toBe(413)
    expect(res.body.message).toBe('Payload Too Large')
    await expectContract(id, res)
    expect((await readAda(auth)).channels[0].credentials.deviceTokens).toEqual(['fcm-token-ada-1'])
  })

  it('accepts a body just under 100 KB (102,400 bytes)', async () => {
    const auth = freshTenant()
    const token = 't'.repeat(102_300)
    const res = await request(server.url).patch(CREDENTIALS).set(auth).send({ providerId: 'fcm', credentials: { deviceTokens: [token] } })
    expect(res.status).toBe(200)
    expect((await readAda(auth)).channels[0].credentials.deviceTokens).toEqual(['fcm-token-ada-1', token])
  })

  it.each([
    ['a JSON body', 'application/json', '{"anything": 1}'],
    ['a text body', 'text/plain', 'hello'],
  ])('ignores %s sent to set-primary, which takes none', async (_name, contentType, payload) => {
    const req = request(server.url).post(`/v1/integrations/${INTEGRATIONS.mailgun}/set-primary`).set(freshTenant())
    const res = await req.set('Content-Type', contentType).send(payload)
    expect(res.status).toBe(200)
    expect(res.body.primary).toBe(true)
    await expectContract('setPrimaryIntegration', res)
  })
})

describe('unknown routes', () => {
  it.each([
    ['GET', '/v1/nope', undefined],
    ['GET', `/v3/subscribers/${ADA}`, undefined],
    ['DELETE', `/v2/subscribers/${ADA}`, undefined],
    ['PUT', `/v1/subscribers/${ADA}/credentials`, 'ApiKey k'],
    ['GET', `/v1/subscribers/${ADA}/credentials`, 'Bearer x'],
    ['POST', '/v1/channel-connections', undefined],
  ])('%s %s → 404 Cannot <METHOD> <path>, before any authentication', async (method, path, authorization) => {
    let req = request(server.url)[method.toLowerCase() as 'get'](path)
    if (authorization) req = req.set('Authorization', authorization)
    const res = await req
    expect(res.status).toBe(404)
    expect(res.headers['content-type']).toMatch(/^application\/json/)
    expect(res.body.message).toBe(`Cannot ${method} ${path}`)
    expect(res.body.statusCode).toBe(404)
    await expectErrorDto(res.body)
  })
})

const NO_VALUE = 'No Value Recorded'

describe('422: the document', () => {
  it.each([
    [
      'credentials, every field wrong',
      'upsertSubscriberCredentials',
      'patch',
      CREDENTIALS,
      { providerId: 'nope', integrationIdentifier: 5, credentials: { deviceTokens: 'x', webhookUrl: 3, channel: false } },
      [
        'providerId must be a valid provider ID',
        'integrationIdentifier must be a string',
        'credentials.webhookUrl must be a string',
        'credentials.channel must be a string',
        'credentials.deviceTokens must be an array',
      ],
    ],
    [
      'credentials, both required fields missing',
      'upsertSubscriberCredentials',
      'patch',
      CREDENTIALS,
      {},
      ['providerId should not be null or undefined', 'credentials should not be null or undefined'],
    ],
    [
      'credentials, a body that is not an object',
      'upsertSubscriberCredentials',
      'patch',
      CREDENTIALS,
      ['fcm'],
      ['providerId should not be null or undefined', 'credentials should not be null or undefined'],
    ],
    [
      'mark-as, both fields wrong',
      'markMessagesAs',
      'post',
      MARK_AS,
      { messageId: 5, markAs: 'done' },
      ['messageId must be a valid MongoDB ObjectId or an array of valid MongoDB ObjectIds', 'markAs must be one of the following values: read, seen, unread, unseen'],
    ],
  ] as const)('lists every problem under general, worded as the live service words it: %s', async (_name, id, method, path, body, messages) => {
    const auth = freshTenant()
    const res = await request(server.url)[method](path).set(auth).send(body as object)
    expect(res.status).toBe(422)
    expect(res.body.message).toBe('Validation Error')
    expect(Object.keys(res.body.errors)).toEqual(['general'])
    expect([...res.body.errors.general.messages].sort()).toEqual([...messages].sort())
    expect(res.body.errors.general.value).toBe(NO_VALUE)
    await expectContract(id, res)
    expect((await readAda(auth)).updatedAt).toBe('2024-06-01T12:00:00.000Z')
  })

  it('lists every problem of the query, each once', async () => {
    const res = await request(server.url).get('/v1/channel-connections?limit=101&orderBy=name&orderDirection=up').set(freshTenant())
    expect(res.status).toBe(422)
    expect(res.body.errors).toEqual({
      general: {
        messages: [
          'limit must not be greater than 100',
          'orderDirection must be one of the following values: ASC, DESC',
          'orderBy must be one of the following values: createdAt, updatedAt',
        ],
        value: NO_VALUE,
      },
    })
    await expectContract('listChannelConnections', res)
  })

  it('names the fields of a 422 in its log line, at debug', async () => {
    const lines: string[] = []
    const logged = await startTestServer({ logger: createLogger('debug', { write: (line: string) => lines.push(line) }) })
    try {
      const res = await request(logged.url).get('/v1/channel-connections?limit=0&channel=fax').set(freshTenant())
      expect(res.status).toBe(422)
      const line = lines.map((l) => JSON.parse(l) as Record<string, unknown>).find((l) => l.msg === 'request broke the document')
      expect(line, lines.join('\n')).toMatchObject({ level: 20, fields: ['query.limit', 'query.channel'] })
    } finally {
      await logged.close()
    }
  })
})

describe('extra and hostile body fields', () => {
  it('ignores extra fields and does not store them', async () => {
    const auth = freshTenant()
    const body = { providerId: 'fcm', credentials: { deviceTokens: ['t-x'], secret: 's' }, extra: 1, subscriberId: 'hijack', _id: 'other' }
    const res = await request(server.url).patch(CREDENTIALS).set(auth).send(body)
    expect(res.status).toBe(200)
    await expectContract('upsertSubscriberCredentials', res)
    const ada = await readAda(auth)
    expect(ada).not.toHaveProperty('extra')
    expect(ada.subscriberId).toBe(ADA)
    expect(ada._id).toBe(ADA_ID)
    expect(ada.channels[0].credentials).toEqual({ deviceTokens: ['fcm-token-ada-1', 't-x'] })
    const mark = await request(server.url).post(MARK_AS).set(auth).send({ messageId: adaMessage(1), markAs: 'seen', extra: true })
    expect(mark.status).toBe(201)
    expect(mark.body[0]).not.toHaveProperty('extra')
    await expectContract('markMessagesAs', mark)
  })

  it.each([
    ['credentials', 'patch', CREDENTIALS, '{"providerId":"fcm","credentials":{"deviceTokens":["p"],"__proto__":{"polluted":true}},"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}'],
    ['mark-as', 'post', MARK_AS, `{"messageId":"${adaMessage(1)}","markAs":"read","__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}`],
    ['credentials as __proto__', 'patch', CREDENTIALS, '{"providerId":"fcm","credentials":{"__proto__":{"deviceTokens":["p"]}}}'],
  ] as const)('does not pollute Object.prototype through a %s body', async (_name, method, path, payload) => {
    const auth = freshTenant()
    const res = await sendRaw(method, path, auth, 'application/json', payload)
    expect(res.status).toBeGreaterThanOrEqual(200)
    expect(res.status).toBeLessThan(500)
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
    expect(Object.prototype).not.toHaveProperty('polluted')
    expect(Object.prototype).not.toHaveProperty('deviceTokens')
    const ada = await readAda(auth)
    expect(ada).not.toHaveProperty('polluted')
    expect(Object.keys(ada.channels[0].credentials)).toEqual(['deviceTokens'])
  })
})

describe('order of checks', () => {
  const noAuth = undefined
  it.each([
    ['a malformed JSON body (400) before auth', noAuth, 'application/json', MALFORMED, 400],
    ['auth (401) before a body of another type', noAuth, 'text/plain', 'x', 401],
    ['413 before auth', noAuth, 'application/json', JSON.stringify({ p: 'x'.repeat(110_000) }), 413],
    ['a malformed body (400) before the document (422)', 'ok', 'application/json', '{"providerId": "nope", ', 400],
    ['a body of another type read as empty: the document (422)', 'ok', 'text/plain', '{"providerId":"fcm"}', 422],
  ] as const)('%s', async (_name, auth, contentType, payload, status) => {
    const res = await sendRaw('patch', CREDENTIALS, auth ? freshTenant() : undefined, contentType, payload)
    expect(res.status).toBe(status)
    await expectContract('upsertSubscriberCredentials', res)
  })

  it('a malformed body (400) before the unknown subscriber (400 of the operation)', async () => {
    const res = await sendRaw('patch', '/v1/subscribers/nobody/credentials', freshTenant(), 'application/json', MALFORMED)
    expect(res.status).toBe(400)
    expect(res.body.message).not.toBe('SubscriberId: nobody not found')
  })

  it('the document (422) before the operation rules (unknown subscriber)', async () => {
    const res = await request(server.url).post('/v1/subscribers/nobody/messages/mark-as').set(freshTenant()).send({ messageId: 'a', markAs: 'done' })
    expect(res.status).toBe(422)
    await expectContract('markMessagesAs', res)
  })
})
