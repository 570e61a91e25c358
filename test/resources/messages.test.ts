// Messages made stateful (docs/behaviour.md §11): the list with page paging and its filters, and mark-all,
// over the same records mark-as (§2.5) reads and writes.
import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { MockServer } from '../../src/app/create-mock-server.ts'
import { expectNovuContract } from '../helpers/expect-novu-contract.ts'
import { readState } from '../helpers/read-state.ts'
import { freshTenant, startTestServer } from '../helpers/start-test-server.ts'
import { ADA, ADA_ID, adaMessage, GRACE, graceMessage } from '../helpers/well-known.ts'

type Auth = ReturnType<typeof freshTenant>

let server: MockServer
beforeAll(async () => {
  server = await startTestServer()
})
afterAll(() => server.close())

const messages = (auth: Auth, query: string) => request(server.url).get(`/v1/messages?${query}`).set(auth)
const markAll = (auth: Auth, subscriberId: string, body: object) => request(server.url).post(`/v1/subscribers/${subscriberId}/messages/mark-all`).set(auth).send(body)
const ids = (body: { data: { _id: string }[] }) => body.data.map((m) => m._id)

describe('GET /v1/messages', () => {
  it('answers a subscriber’s messages newest first, a page of `limit` at `page`, with the total and whether more follow', async () => {
    const auth = freshTenant()
    const first = await messages(auth, `subscriberId=${ADA}&limit=4`)
    expect(first.status).toBe(200)
    await expectNovuContract('MessagesController_getMessages', first)
    expect(first.body).toMatchObject({ page: 0, pageSize: 4, totalCount: 10, hasMore: true })
    expect(ids(first.body)).toEqual([10, 9, 8, 7].map(adaMessage))
    const last = await messages(auth, `subscriberId=${ADA}&limit=4&page=2`)
    expect(last.body).toMatchObject({ page: 2, pageSize: 4, totalCount: 10, hasMore: false })
    expect(ids(last.body)).toEqual([2, 1].map(adaMessage))
  })

  it('filters by transaction ids, one or many, and by channel', async () => {
    const auth = freshTenant()
    const one = await messages(auth, 'transactionId=txn-000002')
    expect(ids(one.body)).toEqual([graceMessage(2), adaMessage(2)])
    const many = await messages(auth, `subscriberId=${GRACE}&transactionId=txn-000001&transactionId=txn-000003`)
    expect(ids(many.body)).toEqual([graceMessage(3), graceMessage(1)])
    const email = await messages(auth, `subscriberId=${ADA}&channel=email`)
    expect(email.body).toMatchObject({ totalCount: 0, data: [], hasMore: false })
  })

  it('answers 400 above 1000 and 404 for an unknown subscriber, in the live service’s words', async () => {
    const auth = freshTenant()
    const tooMany = await messages(auth, 'limit=1001')
    expect(tooMany.status).toBe(400)
    expect(tooMany.body.message).toBe('Limit can not be larger then 1000')
    expect((await messages(auth, 'limit=1000')).status).toBe(200)
    const unknown = await messages(auth, 'subscriberId=nobody')
    expect(unknown.status).toBe(404)
    expect(unknown.body.message).toBe("Subscriber 'nobody' was not found")
  })
})

describe('POST /v1/subscribers/{subscriberId}/messages/mark-all', () => {
  it('marks every in-app message in the opposite state and answers how many changed; the list shows them changed', async () => {
    const auth = freshTenant()
    const othersOf = async () => (await readState(server.url, auth)).messages.filter((m) => m._subscriberId !== ADA_ID)
    const othersBefore = await othersOf()
    const read = await markAll(auth, ADA, { markAs: 'read' })
    expect(read.status).toBe(201)
    await expectNovuContract('SubscribersV1Controller_markAllUnreadAsRead', read)
    expect(read.body).toBe(8)
    const list = await messages(auth, `subscriberId=${ADA}&limit=100`)
    expect(list.body.data.every((m: { read: boolean; seen: boolean }) => m.read && m.seen)).toBe(true)
    expect((await markAll(auth, ADA, { markAs: 'read' })).body).toBe(0)
    expect(await othersOf()).toEqual(othersBefore)
  })

  it('counts each mark by the state it changes: seen from 5 unseen, unseen from 5 seen', async () => {
    expect((await markAll(freshTenant(), ADA, { markAs: 'seen' })).body).toBe(5)
    expect((await markAll(freshTenant(), ADA, { markAs: 'unseen' })).body).toBe(5)
    expect((await markAll(freshTenant(), ADA, { markAs: 'unread' })).body).toBe(2)
  })

  it('answers 404 for an unknown subscriber, naming the environment', async () => {
    const auth = freshTenant()
    const res = await markAll(auth, 'nobody', { markAs: 'read' })
    expect(res.status).toBe(404)
    expect(res.body.message).toMatch(/^Subscriber nobody does not exist in environment [0-9a-f]{24}, please provide a valid subscriber identifier$/)
  })
})

describe('DELETE /v1/messages/{messageId}', () => {
  it('deletes the message for good: acknowledged, gone from the list and the state, a 404 the second time', async () => {
    const auth = freshTenant()
    const res = await request(server.url).delete(`/v1/messages/${adaMessage(3)}`).set(auth)
    expect(res.status).toBe(200)
    await expectNovuContract('MessagesController_deleteMessage', res)
    expect(res.body).toEqual({ acknowledged: true, status: 'deleted' })
    const list = await messages(auth, `subscriberId=${ADA}&limit=100`)
    expect(list.body.totalCount).toBe(9)
    expect(ids(list.body)).not.toContain(adaMessage(3))
    expect((await readState(server.url, auth)).messages.map((m) => m._id)).not.toContain(adaMessage(3))
    const again = await request(server.url).delete(`/v1/messages/${adaMessage(3)}`).set(auth)
    expect(again.status).toBe(404)
    expect(again.body.message).toBe(`Message with id ${adaMessage(3)} not found`)
  })

  it('answers 422 to an id that is not a MongoDB id', async () => {
    const res = await request(server.url).delete('/v1/messages/not-an-id').set(freshTenant())
    expect(res.status).toBe(422)
    expect(res.body.errors.general.messages).toEqual(['messageId must be a mongodb id'])
  })
})
