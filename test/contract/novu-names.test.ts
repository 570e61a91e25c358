// Novu's operations answer to every name (issue 55, docs/behaviour.md §10): the journal keeps Novu's operationId,
// and verify, the journal's filter and fault rules take it, the SDK's method path, or (for the five) their own.
import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { MockServer } from '../../src/app/create-mock-server.ts'
import { loadContracts } from '../../src/app/create-state.ts'
import { FIVE_IN_NOVU } from '../../src/contract/novu/operation-names.ts'
import { freshTenant, startTestServer } from '../helpers/start-test-server.ts'

let server: MockServer
beforeAll(async () => {
  server = await startTestServer()
})
afterAll(() => server.close())

const trigger = (auth: { Authorization: string }, headers: Record<string, string> = {}) =>
  request(server.url).post('/v1/events/trigger').set(auth).set(headers).send({ name: 'welcome', to: 'ada', transactionId: 'txn-names-1' })

describe('the names of an operation', () => {
  it('journals a call under Novu’s operationId, found by it and by the SDK’s method path', async () => {
    const auth = freshTenant()
    expect((await trigger(auth)).status).toBe(201)
    const journal = await request(server.url).get('/__admin/requests?operationId=trigger').set(auth)
    expect(journal.body.requests.map((entry: { operationId: string }) => entry.operationId)).toEqual(['EventsController_trigger'])
    for (const operationId of ['EventsController_trigger', 'trigger']) {
      const verified = await request(server.url).post('/__admin/requests/verify').set(auth).send({ operationId, count: 1 })
      expect(verified.status, operationId).toBe(200)
    }
    const missing = await request(server.url).post('/__admin/requests/verify').set(auth).send({ operationId: 'subscribers.create', count: 1 })
    expect(missing.status).toBe(417)
  })

  it('verifies one of the five by its own name, Novu’s and the SDK’s', async () => {
    const auth = freshTenant()
    expect((await request(server.url).get('/v2/subscribers/demo-subscriber-1').set(auth)).status).toBe(200)
    for (const operationId of ['getSubscriber', 'SubscribersController_getSubscriber', 'subscribers.retrieve']) {
      expect((await request(server.url).post('/__admin/requests/verify').set(auth).send({ operationId, count: 1 })).status, operationId).toBe(200)
    }
  })

  it('applies a fault rule named by the SDK’s method to that operation only', async () => {
    const auth = freshTenant()
    const added = await request(server.url).post('/__admin/faults').set(auth).send({ match: { operationId: 'trigger' }, respond: { status: 503 } })
    expect(added.status, JSON.stringify(added.body)).toBe(201)
    expect((await trigger(auth)).status).toBe(503)
    expect((await request(server.url).get('/v2/topics/news').set(auth)).status).toBe(200)
  })

  it('refuses a fault rule naming no operation of either document', async () => {
    const added = await request(server.url).post('/__admin/faults').set(freshTenant()).send({ match: { operationId: 'nothing.here' }, respond: { status: 503 } })
    expect(added.status).toBe(422)
  })

  it('forces a documented status with Prefer on an operation of Novu’s document', async () => {
    const res = await trigger(freshTenant(), { Prefer: 'code=404' })
    expect(res.status).toBe(404)
    expect(res.body.statusCode).toBe(404)
  })

  it('forces a status Novu documents with a body of its own as an ErrorDto, as the mock answers its own refusals of it', async () => {
    // Trigger documents its 400 as a payload check's body; a malformed body is a 400 ErrorDto there.
    const res = await trigger(freshTenant(), { Prefer: 'code=400' })
    expect(res.status).toBe(400)
    expect(res.body).toMatchObject({ statusCode: 400, path: '/v1/events/trigger' })
  })

  it('answers Prefer code=<its success> on an operation without examples with its own generated answer', async () => {
    const res = await trigger(freshTenant(), { Prefer: 'code=201' })
    expect(res.status).toBe(201)
    expect(res.headers['preference-applied']).toBe('code=201')
    expect(res.body.transactionId).toBe('txn-names-1')
  })

  it('replays a keyed call of an operation of Novu’s document, and refuses the key with another body', async () => {
    const auth = freshTenant()
    const first = await trigger(auth, { 'idempotency-key': 'k-1' })
    const again = await trigger(auth, { 'idempotency-key': 'k-1' })
    expect([first.status, again.status, again.headers['idempotency-replay']]).toEqual([201, 201, 'true'])
    expect(again.text).toBe(first.text)
    const other = await request(server.url).post('/v1/events/trigger').set(auth).set('idempotency-key', 'k-1').send({ name: 'other', to: 'ada' })
    expect(other.status).toBe(422)
  })

  it('pairs each of the five with the operation of Novu’s document on its route', async () => {
    const { api, novu } = await loadContracts()
    for (const [novuId, own] of Object.entries(FIVE_IN_NOVU)) {
      const [mine, theirs] = [api.operations.get(own)!, novu.operations.get(novuId)!]
      expect(`${theirs.method} ${theirs.pathTemplate}`.replace(/\{[^}]+\}/g, '{}')).toBe(`${mine.method} ${mine.pathTemplate}`.replace(/\{[^}]+\}/g, '{}'))
    }
  })
})
