import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { MockServer } from '../../src/app/create-mock-server.ts'
import { expectContract } from '../helpers/expect-contract.ts'
import { freshTenant, startTestServer } from '../helpers/start-test-server.ts'

type Auth = ReturnType<typeof freshTenant>

const M1 = '64f200000000000000000001'
const MARK_PATH = '/v1/subscribers/demo-subscriber-1/messages/mark-as'
const OPERATIONS = 'upsertSubscriberCredentials, getSubscriber, setPrimaryIntegration, listChannelConnections, markMessagesAs'

let server: MockServer
beforeAll(async () => {
  server = await startTestServer()
})
afterAll(() => server.close())

async function verify(auth: Auth, body: object, status: number) {
  const res = await request(server.url).post('/__admin/requests/verify').set(auth).send(body)
  expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(status)
  await expectContract('verifyRequests', res, 'admin')
  return res
}

/** One accepted mark-as (201) and one refused (422, a bad messageId), both with `markAs: read`. */
async function oneAcceptedOneRefused(auth: Auth): Promise<void> {
  expect((await request(server.url).post(MARK_PATH).set(auth).send({ messageId: [M1], markAs: 'read' })).status).toBe(201)
  expect((await request(server.url).post(MARK_PATH).set(auth).send({ messageId: 'not-an-id', markAs: 'read' })).status).toBe(422)
}

describe('POST /__admin/requests/verify: an operationId the document does not have', () => {
  it.each([0, 1, undefined])('is a 422 naming the operations it has (count %s), never a pass', async (count) => {
    const res = await verify(freshTenant(), { operationId: 'markMessageAs', count }, 422)
    const [message] = res.body.errors.operationId.messages as string[]
    // The five first, then every name of Novu's document: its operationIds and the SDK's method paths.
    expect(message.startsWith(`must be equal to one of the allowed values: ${OPERATIONS}, `)).toBe(true)
    expect(message.split(', ')).toEqual(expect.arrayContaining(['EventsController_trigger', 'trigger', 'subscribers.create']))
    expect(message).not.toContain('markMessageAs,')
  })

  it('names exactly the operations of the API document', async () => {
    const document = (await request(server.url).get('/openapi.json')).body as { paths: Record<string, Record<string, { operationId: string }>> }
    const operationIds = Object.values(document.paths).flatMap((path) => Object.values(path).map((operation) => operation.operationId))
    expect(operationIds.sort()).toEqual(OPERATIONS.split(', ').sort())
  })
})

describe('POST /__admin/requests/verify: the status filter', () => {
  it.each<[string, number | string | undefined, number]>([
    ['every recorded call counts without a filter, refused ones too', undefined, 2],
    ['an exact status', 201, 1],
    ['the refused call by its status', 422, 1],
    ['a class', '2xx', 1],
    ['another class', '4xx', 1],
    ['a status never answered', 500, 0],
  ])('%s', async (_case, status, matched) => {
    const auth = freshTenant()
    await oneAcceptedOneRefused(auth)
    const res = await verify(auth, { operationId: 'markMessagesAs', bodyMatches: { markAs: 'read' }, status, count: matched }, 200)
    expect(res.body).toEqual({ matched })
  })

  it('names the status in a failed expectation', async () => {
    const auth = freshTenant()
    await oneAcceptedOneRefused(auth)
    const res = await verify(auth, { operationId: 'markMessagesAs', status: '2xx', count: 2 }, 417)
    expect(res.body.message).toBe('Expected exactly 2 call(s) of markMessagesAs answered 2xx, matched 1')
    expect(res.body.ctx.seen).toHaveLength(2)
  })

  it.each(['2XX', '6xx', 'xx', 99, 600, '201'])('refuses the status %j with a 422', async (status) => {
    const res = await verify(freshTenant(), { operationId: 'markMessagesAs', status }, 422)
    expect(Object.keys(res.body.errors)).toEqual(['status'])
  })
})
