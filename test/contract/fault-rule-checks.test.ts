import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { MockServer } from '../../src/app/create-mock-server.ts'
import { expectContract } from '../helpers/expect-contract.ts'
import { freshTenant, startTestServer } from '../helpers/start-test-server.ts'
import { ADA, adaMessage } from '../helpers/well-known.ts'

let server: MockServer
beforeAll(async () => {
  server = await startTestServer()
})
afterAll(() => server.close())

const addFault = (auth: { Authorization: string }, rule: object) => request(server.url).post('/__admin/faults').set(auth).send(rule)

describe('fault rules are checked against the document', () => {
  it('applies a preset without a match only to the operations that document its status', async () => {
    const auth = freshTenant()
    expect((await addFault(auth, { preset: 'idempotency-in-progress' })).status).toBe(201)
    const read = await request(server.url).get(`/v2/subscribers/${ADA}`).set(auth)
    expect(read.status).toBe(200) // getSubscriber documents no 409
    await expectContract('getSubscriber', read)
    const write = await request(server.url)
      .post(`/v1/subscribers/${ADA}/messages/mark-as`)
      .set({ ...auth, 'idempotency-key': 'k-1' })
      .send({ messageId: adaMessage(1), markAs: 'read' })
    expect(write.status).toBe(409)
    expect(write.body.message).toBe('Request with key "k-1" is currently being processed. Please retry after 1 second')
    await expectContract('markMessagesAs', write)
  })

  it.each([
    ['a preset whose status the named operation does not document', { preset: 'idempotency-in-progress', match: { operationId: 'getSubscriber' } }, 'respond.status'],
    ['a body that breaks the document', { match: { operationId: 'getSubscriber' }, respond: { status: 404, body: { nope: 1 } } }, 'respond.body'],
    ['an operation the document does not have', { match: { operationId: 'deleteEverything' }, respond: { status: 500 } }, 'match.operationId'],
  ])('refuses %s with a 422', async (_case, rule, field) => {
    const res = await addFault(freshTenant(), rule)
    expect(res.status).toBe(422)
    await expectContract('addFault', res, 'admin')
    expect(Object.keys(res.body.errors)).toEqual([field])
  })
})
