// A trigger's recipients and actor are created or updated before the answer (docs/behaviour.md §11).
import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { MockServer } from '../../src/app/create-mock-server.ts'
import { expectContract } from '../helpers/expect-contract.ts'
import { readState } from '../helpers/read-state.ts'
import { freshTenant, startTestServer } from '../helpers/start-test-server.ts'
import { ADA } from '../helpers/well-known.ts'

const CLOCK = '2026-03-01T12:00:00.000Z'
let server: MockServer
beforeAll(async () => {
  server = await startTestServer({ clock: Date.parse(CLOCK) })
})
afterAll(() => server.close())

const api = () => request(server.url)

describe('POST /v1/events/trigger', () => {
  it('creates a new recipient with the fields given, before it answers 201 processed', async () => {
    const auth = freshTenant()
    const res = await api().post('/v1/events/trigger').set(auth).send({ name: 'any-workflow', to: { subscriberId: 'new-1', email: 'n@example.com' } })
    expect(res.status).toBe(201)
    await expectContract('EventsController_trigger', res, 'novu')
    expect(res.body).toMatchObject({ acknowledged: true, status: 'processed' })
    // `txn_`, the clock's Unix seconds in hex, then 12 of [0-9a-z].
    expect(res.body.transactionId).toMatch(new RegExp(`^txn_${(Date.parse(CLOCK) / 1000).toString(16)}[0-9a-z]{12}$`))
    const got = await api().get('/v2/subscribers/new-1').set(auth)
    expect(got.status).toBe(200)
    expect(got.body).toMatchObject({ subscriberId: 'new-1', email: 'n@example.com', createdAt: CLOCK })
  })

  it('updates known recipients with the fields given, leaves absent ones, takes strings, arrays and the actor; a topic changes nothing', async () => {
    const auth = freshTenant()
    const before = await readState(server.url, auth)
    const res = await api()
      .post('/v1/events/trigger')
      .set(auth)
      .send({
        name: 'welcome',
        transactionId: 'my-txn',
        to: [{ subscriberId: ADA, lastName: 'Byron' }, 'plain-id', { type: 'Topic', topicKey: 'news' }],
        actor: { subscriberId: 'actor-1', firstName: 'Act' },
      })
    expect(res.status).toBe(201)
    expect(res.body).toEqual({ acknowledged: true, status: 'processed', transactionId: 'my-txn' })
    const ada = (await api().get(`/v2/subscribers/${ADA}`).set(auth)).body
    expect(ada).toMatchObject({ firstName: 'Ada', lastName: 'Byron', email: before.subscribers.find((s) => s.subscriberId === ADA)!.email })
    expect((await api().get('/v2/subscribers/plain-id').set(auth)).status).toBe(200)
    expect((await api().get('/v2/subscribers/actor-1').set(auth)).body.firstName).toBe('Act')
    const after = await readState(server.url, auth)
    expect(after.subscribers).toHaveLength(before.subscribers.length + 2)
    // No workflow runs: no message is made.
    expect(after.messages).toHaveLength(before.messages.length)
  })
})

describe('POST /v1/events/trigger/bulk', () => {
  it('answers one result per event in order, each event’s recipients kept', async () => {
    const auth = freshTenant()
    const res = await api()
      .post('/v1/events/trigger/bulk')
      .set(auth)
      .send({ events: [{ name: 'a', to: 'bulk-1', transactionId: 't-1' }, { name: 'b', to: ['bulk-2'], transactionId: 't-2' }] })
    expect(res.status).toBe(201)
    await expectContract('EventsController_triggerBulk', res, 'novu')
    expect(res.body).toEqual([
      { acknowledged: true, status: 'processed', transactionId: 't-1' },
      { acknowledged: true, status: 'processed', transactionId: 't-2' },
    ])
    expect((await api().get('/v2/subscribers/bulk-2').set(auth)).status).toBe(200)
  })

  it('refuses no events or more than 100 with a 422, nothing kept', async () => {
    const auth = freshTenant()
    const none = await api().post('/v1/events/trigger/bulk').set(auth).send({ events: [] })
    expect(none.status).toBe(422)
    expect(none.body.errors.general.messages).toEqual(['events must contain at least 1 elements'])
    const events = Array.from({ length: 101 }, (_, i) => ({ name: 'w', to: `many-${i}` }))
    const many = await api().post('/v1/events/trigger/bulk').set(auth).send({ events })
    expect(many.status).toBe(422)
    expect(many.body.errors.general.messages).toEqual(['events must contain no more than 100 elements'])
    expect((await api().get('/v2/subscribers/many-0').set(auth)).status).toBe(404)
  })
})

describe('DELETE /v1/events/trigger/{transactionId}', () => {
  it('answers 200 false: the mock delays nothing to cancel', async () => {
    const res = await api().delete('/v1/events/trigger/my-txn').set(freshTenant())
    expect(res.status).toBe(200)
    expect(res.body).toBe(false)
  })
})
