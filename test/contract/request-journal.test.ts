import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { components } from '../../src/contract/generated/admin-types.ts'
import type { MockServer } from '../../src/app/create-mock-server.ts'
import { expectContract } from '../helpers/expect-contract.ts'
import { freshTenant, startTestServer } from '../helpers/start-test-server.ts'
import { ADA, adaMessage, GRACE, INTEGRATIONS } from '../helpers/well-known.ts'

type Auth = ReturnType<typeof freshTenant>
type Entry = components['schemas']['JournalEntry']

const MAILGUN = INTEGRATIONS.mailgun
const [M1, M2, M3] = [adaMessage(1), adaMessage(2), adaMessage(3)]
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/
const MARK_PATH = `/v1/subscribers/${ADA}/messages/mark-as`
const CRED_PATH = `/v1/subscribers/${GRACE}/credentials`

let server: MockServer
beforeAll(async () => {
  server = await startTestServer()
})
afterAll(() => server.close())

const on = (target: MockServer = server) => request(target.url)
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** One call: its status, and the document (the API's, or the admin one) checked. */
async function api(operationId: string, call: request.Test, status: number, document: 'api' | 'admin' = 'api') {
  const res = await call
  expect(res.status, `${operationId} ${JSON.stringify(res.body).slice(0, 300)}`).toBe(status)
  await expectContract(operationId, res, document)
  return res
}
const getSubscriber = (auth: Auth, id = ADA, status = 200, target = server) =>
  api('getSubscriber', on(target).get(`/v2/subscribers/${id}`).set(auth), status)
const markAs = (auth: Auth, body: object, status = 201) => api('markMessagesAs', on().post(MARK_PATH).set(auth).send(body), status)
const upsert = (auth: Auth, body: object) => api('upsertSubscriberCredentials', on().patch(CRED_PATH).set(auth).send(body), 200)
const setPrimary = (auth: Auth) => api('setPrimaryIntegration', on().post(`/v1/integrations/${MAILGUN}/set-primary`).set(auth), 200)
const connections = (auth: Auth, query: string, status = 200) =>
  api('listChannelConnections', on().get(`/v1/channel-connections?${query}`).set(auth), status)

const journal = (auth: Auth, query = '', status = 200, target = server) =>
  api('listRequests', on(target).get(`/__admin/requests${query ? `?${query}` : ''}`).set(auth), status, 'admin')
const entries = async (auth: Auth, query = '', target = server): Promise<Entry[]> => (await journal(auth, query, 200, target)).body.requests
const verify = (auth: Auth, body: object, status: number) => api('verifyRequests', on().post('/__admin/requests/verify').set(auth).send(body), status, 'admin')

describe('GET /__admin/requests: what is recorded', () => {
  it('records every call of the five operations, error answers too, oldest first', async () => {
    const auth = freshTenant()
    const markBody = { messageId: [M1], markAs: 'read' }
    const credBody = { providerId: 'fcm', credentials: { deviceTokens: ['t1'] } }
    const answers = [
      await getSubscriber(auth),
      await connections(auth, 'limit=2&contextKeys=a&contextKeys=b'),
      await markAs(auth, markBody),
      await upsert(auth, credBody),
      await setPrimary(auth),
      await getSubscriber(auth, 'nobody', 404),
      await connections(auth, 'limit=0', 422),
      await api('markMessagesAs', on().post(MARK_PATH).set(auth).set('Content-Type', 'application/json').send('{"markAs":'), 400),
    ]
    await api('getState', on().get('/__admin/state').set(auth), 200, 'admin') // admin calls are not journaled
    const recorded = await entries(auth)
    expect(recorded.map((e) => [e.operationId, e.method, e.path, e.query, e.status])).toEqual([
      ['getSubscriber', 'GET', `/v2/subscribers/${ADA}`, {}, 200],
      ['listChannelConnections', 'GET', '/v1/channel-connections', { limit: '2', contextKeys: ['a', 'b'] }, 200],
      ['markMessagesAs', 'POST', MARK_PATH, {}, 201],
      ['upsertSubscriberCredentials', 'PATCH', CRED_PATH, {}, 200],
      ['setPrimaryIntegration', 'POST', `/v1/integrations/${MAILGUN}/set-primary`, {}, 200],
      ['getSubscriber', 'GET', '/v2/subscribers/nobody', {}, 404],
      ['listChannelConnections', 'GET', '/v1/channel-connections', { limit: '0' }, 422],
      ['markMessagesAs', 'POST', MARK_PATH, {}, 400],
    ])
    expect(recorded.map((e) => e.responseBody)).toEqual(answers.map((res) => res.body))
    expect(recorded[2]!.requestBody).toEqual(markBody)
    expect(recorded[3]!.requestBody).toEqual(credBody)
    recorded.forEach((e, i) => {
      expect(e.time).toMatch(ISO)
      expect(e.durationMs).toBeGreaterThanOrEqual(0)
      expect(e.truncated ?? false).toBe(false)
      if (i > 0) expect(e.id).toBeGreaterThan(recorded[i - 1]!.id)
      if (i > 0) expect(Date.parse(e.time)).toBeGreaterThanOrEqual(Date.parse(recorded[i - 1]!.time))
    })
  })

  it('shows a tenant only its own calls', async () => {
    const [mine, other] = [freshTenant(), freshTenant()]
    await getSubscriber(other)
    await markAs(other, { messageId: [M1], markAs: 'seen' })
    expect(await entries(mine)).toEqual([])
    await getSubscriber(mine, GRACE)
    expect((await entries(mine)).map((e) => e.path)).toEqual([`/v2/subscribers/${GRACE}`])
    expect(await entries(other)).toHaveLength(2)
  })

  it('keeps only the last --journal-size calls', async () => {
    const small = await startTestServer({ journalSize: 5 })
    try {
      const auth = freshTenant()
      for (let i = 1; i <= 8; i++) await getSubscriber(auth, `nobody-${i}`, 404, small)
      const kept = await entries(auth, '', small)
      expect(kept.map((e) => e.path)).toEqual([4, 5, 6, 7, 8].map((i) => `/v2/subscribers/nobody-${i}`))
    } finally {
      await small.close()
    }
  })

  it('cuts bodies over 16 KiB to a JSON string and flags them', async () => {
    const auth = freshTenant()
    const body = { providerId: 'fcm', credentials: { deviceTokens: Array.from({ length: 99 }, (_, i) => `token-${String(i).padStart(200, '0')}`) } }
    expect(JSON.stringify(body).length).toBeGreaterThan(20_000)
    await upsert(auth, body)
    const [entry] = await entries(auth)
    expect(entry!.truncated).toBe(true)
    expect(entry!.requestBody).toBe(JSON.stringify(body).slice(0, 16 * 1024))
    expect(typeof entry!.responseBody).toBe('string')
    expect((entry!.responseBody as string).length).toBeLessThanOrEqual(16 * 1024)
  })

  it('records the request headers as sent, secrets redacted', async () => {
    const auth = freshTenant()
    const call = on().post(MARK_PATH).set(auth).set({ Prefer: 'code=201', 'X-Trace': 'a', Cookie: 'session=s3cret', 'idempotency-key': 'idem-1' })
    await api('markMessagesAs', call.send({ messageId: [M1], markAs: 'read' }), 201)
    const [entry] = await entries(auth)
    expect(entry!.headers).toMatchObject({
      authorization: '[redacted]',
      cookie: '[redacted]',
      'idempotency-key': '[redacted]',
      prefer: 'code=201',
      'x-trace': 'a',
      'content-type': 'application/json',
    })
  })

  it('never shows the Authorization value nor an idempotency key', async () => {
    const key = `secret-${crypto.randomUUID()}`
    const auth = { Authorization: `ApiKey ${key}` }
    const idempotencyKey = `idem-${crypto.randomUUID()}`
    await api('markMessagesAs', on().post(MARK_PATH).set(auth).set('idempotency-key', idempotencyKey).send({ messageId: [M1], markAs: 'read' }), 201)
    await api('setPrimaryIntegration', on().post(`/v1/integrations/${MAILGUN}/set-primary`).set(auth).set('idempotency-key', idempotencyKey), 422)
    await getSubscriber(auth, 'nobody', 404)
    const res = await journal(auth)
    expect(res.body.requests).toHaveLength(3)
    for (const secret of [key, auth.Authorization, idempotencyKey]) expect(res.text).not.toContain(secret)
  })
})

describe('GET /__admin/requests: filters', () => {
  const auth = freshTenant()
  let all: Entry[]
  beforeAll(async () => {
    await getSubscriber(auth)
    await getSubscriber(auth, 'nobody', 404)
    await sleep(20)
    await markAs(auth, { messageId: [M1], markAs: 'read' })
    await connections(auth, 'limit=1')
    await setPrimary(auth)
    all = await entries(auth)
    expect(all).toHaveLength(5)
  })

  it.each<[string, () => string, number[]]>([
    ['operationId', () => 'operationId=getSubscriber', [0, 1]],
    ['method', () => 'method=POST', [2, 4]],
    ['path', () => 'path=/v2/subscribers/nobody', [1]],
    ['status', () => 'status=404', [1]],
    ['limit (the most recent)', () => 'limit=2', [3, 4]],
    ['since', () => `since=${encodeURIComponent(all[2]!.time)}`, [2, 3, 4]],
    ['method and status together', () => 'method=GET&status=200', [0, 3]],
    ['operationId and limit', () => 'operationId=getSubscriber&limit=1', [1]],
    ['id (one entry)', () => `id=${all[3]!.id}`, [3]],
    ['an id the journal does not hold', () => `id=${all[4]!.id + 1}`, []],
  ])('filters by %s', async (_case, query, indices) => {
    expect(await entries(auth, query())).toEqual(indices.map((i) => all[i]))
  })

  it.each([['status=abc'], ['id=0'], ['limit=0'], ['limit=10001'], ['method=FOO'], ['since=yesterday']])('answers 422 for %s', async (query) => {
    await journal(auth, query, 422)
  })

  it('returns the 100 most recent calls when no limit is given', async () => {
    const busy = freshTenant()
    for (let i = 0; i < 105; i++) await getSubscriber(busy, `demo-subscriber-${i < 104 ? 1 : 2}`)
    const recorded = await entries(busy)
    expect(recorded).toHaveLength(100)
    expect(recorded[99]!.path).toBe(`/v2/subscribers/${GRACE}`)
    expect(recorded[99]!.id - recorded[0]!.id).toBe(99)
  })
})

describe('DELETE /__admin/requests', () => {
  it('clears the tenant’s journal and answers how many were removed', async () => {
    const [auth, other] = [freshTenant(), freshTenant()]
    for (const id of [ADA, GRACE, 'nobody']) await getSubscriber(auth, id, id === 'nobody' ? 404 : 200)
    await getSubscriber(other)
    for (const cleared of [3, 0]) {
      expect((await api('clearRequests', on().delete('/__admin/requests').set(auth), 200, 'admin')).body).toEqual({ cleared })
      expect(await entries(auth)).toEqual([])
    }
    expect(await entries(other)).toHaveLength(1)
  })
})

describe('POST /__admin/requests/verify', () => {
  it.each<[string, object, number, number]>([
    ['count exact', { count: 2 }, 200, 2],
    ['count too low', { count: 1 }, 417, 2],
    ['count too high', { count: 3 }, 417, 2],
    ['atLeast met', { atLeast: 2 }, 200, 2],
    ['atLeast missed', { atLeast: 3 }, 417, 2],
    ['bodyMatches markAs read', { bodyMatches: { markAs: 'read' }, count: 1 }, 200, 1],
    ['bodyMatches the whole id list', { bodyMatches: { messageId: [M1, M2] }, count: 1 }, 200, 1],
    ['bodyMatches a shorter id list', { bodyMatches: { messageId: [M1] } }, 417, 0],
    ['bodyMatches a value never sent', { bodyMatches: { markAs: 'unseen' }, count: 0 }, 200, 0],
  ])('%s', async (_case, expectation, status, matched) => {
    const auth = freshTenant()
    await markAs(auth, { messageId: [M1, M2], markAs: 'read' })
    await markAs(auth, { messageId: [M3], markAs: 'seen' })
    const body = { operationId: 'markMessagesAs', ...expectation }
    const res = await verify(auth, body, status)
    if (status === 200) return expect(res.body).toEqual({ matched })
    expect(res.body.statusCode).toBe(417)
    expect(res.body.ctx).toMatchObject({ matched, expected: body })
    expect((res.body.ctx.seen as Entry[]).map((e) => e.requestBody)).toEqual([
      { messageId: [M1, M2], markAs: 'read' },
      { messageId: [M3], markAs: 'seen' },
    ])
  })

  it('expects at least one call when neither count nor atLeast is given', async () => {
    const auth = freshTenant()
    const missed = await verify(auth, { operationId: 'setPrimaryIntegration' }, 417)
    expect(missed.body.ctx).toMatchObject({ matched: 0, seen: [] })
    await setPrimary(auth)
    expect((await verify(auth, { operationId: 'setPrimaryIntegration' }, 200)).body).toEqual({ matched: 1 })
  })

  it('matches nested bodies, arrays element by element with the same length', async () => {
    const auth = freshTenant()
    await upsert(auth, { providerId: 'fcm', credentials: { deviceTokens: ['t1'] } })
    await upsert(auth, { providerId: 'fcm', credentials: { deviceTokens: ['t1', 't2'] } })
    const operationId = 'upsertSubscriberCredentials'
    expect((await verify(auth, { operationId, bodyMatches: { credentials: { deviceTokens: ['t1'] } }, count: 1 }, 200)).body).toEqual({ matched: 1 })
    expect((await verify(auth, { operationId, bodyMatches: { providerId: 'fcm' }, count: 2 }, 200)).body).toEqual({ matched: 2 })
    expect((await verify(auth, { operationId, bodyMatches: { credentials: { deviceTokens: ['t2'] } } }, 417)).body.ctx.matched).toBe(0)
  })

  it('tells that the frontend marked these messages read once', async () => {
    const auth = freshTenant()
    const expectation = { operationId: 'markMessagesAs', count: 1, bodyMatches: { messageId: [M1, M2], markAs: 'read' } }
    await getSubscriber(auth)
    await markAs(auth, { messageId: [M1, M2], markAs: 'read' })
    await markAs(auth, { messageId: [M1, M2], markAs: 'seen' })
    expect((await verify(auth, expectation, 200)).body).toEqual({ matched: 1 })
    await markAs(auth, { messageId: [M1, M2], markAs: 'read' }) // a double submit
    const failed = await verify(auth, expectation, 417)
    expect(failed.body.ctx).toMatchObject({ matched: 2, expected: expectation })
    expect(failed.body.ctx.seen).toHaveLength(3)
  })

  it.each<[string, object]>([
    ['without operationId', { count: 1 }],
    ['with a negative count', { operationId: 'getSubscriber', count: -1 }],
    ['with an unknown field', { operationId: 'getSubscriber', times: 1 }],
    ['with a non-object bodyMatches', { operationId: 'getSubscriber', bodyMatches: 'read' }],
  ])('answers 422 for a body %s', async (_case, body) => {
    await verify(freshTenant(), body, 422)
  })
})
