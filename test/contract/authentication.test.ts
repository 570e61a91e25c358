import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { MockServer } from '../../src/app/create-mock-server.ts'
import { expectContract } from '../helpers/expect-contract.ts'
import { freshTenant, startTestServer } from '../helpers/start-test-server.ts'
import { ADA, adaMessage, GRACE, INTEGRATIONS } from '../helpers/well-known.ts'

interface Operation {
  id: string
  method: 'get' | 'post' | 'patch'
  path: string
  body?: object
  ok: number
}

const OPERATIONS: Operation[] = [
  {
    id: 'upsertSubscriberCredentials',
    method: 'patch',
    path: `/v1/subscribers/${GRACE}/credentials`,
    body: { providerId: 'fcm', credentials: { deviceTokens: ['t1'] } },
    ok: 200,
  },
  { id: 'getSubscriber', method: 'get', path: `/v2/subscribers/${ADA}`, ok: 200 },
  { id: 'setPrimaryIntegration', method: 'post', path: `/v1/integrations/${INTEGRATIONS.mailgun}/set-primary`, ok: 200 },
  { id: 'listChannelConnections', method: 'get', path: '/v1/channel-connections', ok: 200 },
  {
    id: 'markMessagesAs',
    method: 'post',
    path: `/v1/subscribers/${ADA}/messages/mark-as`,
    body: { messageId: adaMessage(1), markAs: 'read' },
    ok: 201,
  },
]

/** [case, Authorization header (undefined: none), message] from docs/behaviour.md §1.3. */
const REFUSALS: [string, string | undefined, string][] = [
  ['no header', undefined, 'Missing authorization header'],
  ['an empty header', '', 'Missing authorization header'],
  ['the Bearer scheme', 'Bearer x', 'Invalid authentication scheme: "Bearer"'],
  ['the Basic scheme', 'Basic dXNlcjpwYXNz', 'Invalid authentication scheme: "Basic"'],
  ['a bare key with no scheme', 'test-key', 'Invalid authentication scheme: "test-key"'],
  ['ApiKey with no key', 'ApiKey', 'Unauthorized'],
]

function call(server: MockServer, operation: Operation, authorization: string | undefined) {
  let req = request(server.url)[operation.method](operation.path)
  if (authorization !== undefined) req = req.set('Authorization', authorization)
  return operation.body ? req.send(operation.body) : req
}

const HEX24 = /^[0-9a-f]{24}$/

let open: MockServer
let other: MockServer
let strict: MockServer
beforeAll(async () => {
  ;[open, other, strict] = await Promise.all([startTestServer(), startTestServer(), startTestServer({ apiKeys: ['k1'] })])
})
afterAll(() => Promise.all([open.close(), other.close(), strict.close()]))

describe('401 for every operation', () => {
  const rows = OPERATIONS.flatMap((operation) => REFUSALS.map(([name, header, message]) => ({ operation, name, header, message })))
  it.each(rows)('$operation.id with $name → 401 $message', async ({ operation, header, message }) => {
    const res = await call(open, operation, header)
    expect(res.status).toBe(401)
    expect(res.headers['content-type']).toMatch(/^application\/json/)
    expect(res.body.message).toBe(message)
    expect(res.body.statusCode).toBe(401)
    expect(res.body.path).toBe(operation.path)
    await expectContract(operation.id, res)
  })
})

describe('strict mode', () => {
  it.each(OPERATIONS)('$id refuses any key but the configured one with 401 API Key not found', async (operation) => {
    for (const key of ['k2', 'K1', 'k1x', `test-${crypto.randomUUID()}`]) {
      const res = await call(strict, operation, `ApiKey ${key}`)
      expect(res.status, key).toBe(401)
      expect(res.body.message).toBe('API Key not found')
      await expectContract(operation.id, res)
    }
  })

  it.each(OPERATIONS)('$id accepts the configured key', async (operation) => {
    const res = await call(strict, operation, 'ApiKey k1')
    expect(res.status).toBe(operation.ok)
    await expectContract(operation.id, res)
  })

  it('still answers the other 401 messages before looking at the key list', async () => {
    const res = await call(strict, OPERATIONS[1]!, 'Bearer k1')
    expect(res.status).toBe(401)
    expect(res.body.message).toBe('Invalid authentication scheme: "Bearer"')
  })
})

describe('tenants', () => {
  const getAda = (server: MockServer, auth: { Authorization: string }) =>
    request(server.url).get(`/v2/subscribers/${ADA}`).set(auth)

  it('keeps a write under one key invisible under another', async () => {
    const writer = freshTenant()
    const reader = freshTenant()
    const write = await request(open.url)
      .patch(`/v1/subscribers/${ADA}/credentials`)
      .set(writer)
      .send({ providerId: 'fcm', credentials: { deviceTokens: ['only-mine'] } })
    expect(write.status).toBe(200)
    const mine = await getAda(open, writer)
    const theirs = await getAda(open, reader)
    await expectContract('getSubscriber', theirs)
    expect(mine.body.channels[0].credentials.deviceTokens).toEqual(['fcm-token-ada-1', 'only-mine'])
    expect(theirs.body.channels[0].credentials.deviceTokens).toEqual(['fcm-token-ada-1'])
    expect(theirs.body.updatedAt).not.toBe(mine.body.updatedAt)
  })

  it('derives 24-hex tenant ids from the key: same key same ids across servers, other key other ids', async () => {
    const a = freshTenant()
    const b = freshTenant()
    const [a1, a2, b1] = await Promise.all([getAda(open, a), getAda(other, a), getAda(open, b)])
    for (const res of [a1, a2, b1]) {
      expect(res.status).toBe(200)
      expect(res.body._organizationId).toMatch(HEX24)
      expect(res.body._environmentId).toMatch(HEX24)
    }
    expect(a2.body._organizationId).toBe(a1.body._organizationId)
    expect(a2.body._environmentId).toBe(a1.body._environmentId)
    expect(b1.body._organizationId).not.toBe(a1.body._organizationId)
    expect(b1.body._environmentId).not.toBe(a1.body._environmentId)
    expect(a1.body._organizationId).not.toBe(a1.body._environmentId)
  })
})
