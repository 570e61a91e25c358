// Novu's subscriber operations keep state (docs/behaviour.md §11): create (an upsert), bulk, patch,
// delete and search read and write the records GET /v2/subscribers/{id} answers.
import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { MockServer } from '../../src/app/create-mock-server.ts'
import { expectContract } from '../helpers/expect-contract.ts'
import { readState } from '../helpers/read-state.ts'
import { freshTenant, startTestServer } from '../helpers/start-test-server.ts'
import { ADA, ADA_ID, GRACE } from '../helpers/well-known.ts'

let server: MockServer
beforeAll(async () => {
  server = await startTestServer()
})
afterAll(() => server.close())

const api = () => request(server.url)

async function create(auth: { Authorization: string }, body: object, query = '') {
  const res = await api().post(`/v2/subscribers${query}`).set(auth).send(body)
  if (res.status === 201) await expectContract('SubscribersController_createSubscriber', res, 'novu')
  return res
}

describe('POST /v2/subscribers', () => {
  it('creates the subscriber, answered 201 and then found by GET, with only the fields sent', async () => {
    const auth = freshTenant()
    const res = await create(auth, { subscriberId: 'u-1', firstName: 'Ada', email: 'ada@example.com', phone: null })
    expect(res.status).toBe(201)
    expect(res.body).toMatchObject({ subscriberId: 'u-1', firstName: 'Ada', email: 'ada@example.com', phone: null, isOnline: false, channels: [], deleted: false, lastOnlineAt: null })
    expect(res.body).not.toHaveProperty('lastName')
    expect(res.body._id).toMatch(/^[0-9a-f]{24}$/)
    const got = await api().get('/v2/subscribers/u-1').set(auth)
    expect(got.status).toBe(200)
    expect(got.body).toEqual(res.body)
  })

  it('updates an existing one with the fields sent (201 again), its data replaced', async () => {
    const auth = freshTenant()
    const first = await create(auth, { subscriberId: 'u-2', firstName: 'A', lastName: 'B', data: { plan: 'pro' } })
    const again = await create(auth, { subscriberId: 'u-2', firstName: 'C' })
    expect(again.status).toBe(201)
    expect(again.body).toMatchObject({ _id: first.body._id, firstName: 'C', lastName: 'B', data: {} })
  })

  it('refuses an existing id with ?failIfExists=true: 409, nothing changed', async () => {
    const auth = freshTenant()
    const res = await create(auth, { subscriberId: ADA, firstName: 'Changed' }, '?failIfExists=true')
    expect(res.status).toBe(409)
    expect(res.body.message).toBe(`Subscriber with id "${ADA}" already exists`)
    // Novu's document (and so the SDK) reads this 409 as the subscriber met: the body is both.
    expect(res.body).toMatchObject({ statusCode: 409, subscriberId: ADA, firstName: 'Ada' })
    await expectContract('SubscribersController_createSubscriber', res, 'novu')
    expect((await api().get(`/v2/subscribers/${ADA}`).set(auth)).body.firstName).toBe('Ada')
    expect((await create(auth, { subscriberId: 'fresh' }, '?failIfExists=true')).status).toBe(201)
  })

  it('answers 422 for an empty subscriberId, a bad email, locale or timezone', async () => {
    const auth = freshTenant()
    const res = await create(auth, { subscriberId: '', email: 'not-an-email', locale: 'xx_not_a_locale!', timezone: 'Mars/Olympus' })
    expect(res.status).toBe(422)
    expect(res.body.errors.general.messages).toEqual([
      'subscriberId should not be empty',
      'email must be an email',
      'locale must be locale',
      'timezone must be a valid IANA time-zone',
    ])
    expect((await create(auth, {})).status).toBe(422)
  })
})

describe('POST /v1/subscribers/bulk', () => {
  it('creates the new ones and updates the known ones, each listed; a bad one listed failed', async () => {
    const auth = freshTenant()
    const res = await api()
      .post('/v1/subscribers/bulk')
      .set(auth)
      .send({ subscribers: [{ subscriberId: 'b-1', email: 'b1@example.com' }, { subscriberId: ADA, lastName: 'King' }, { subscriberId: 'b-2', email: 'nope' }] })
    expect(res.status).toBe(201)
    await expectContract('SubscribersV1Controller_bulkCreateSubscribers', res, 'novu')
    expect(res.body).toEqual({ created: [{ subscriberId: 'b-1' }], updated: [{ subscriberId: ADA }], failed: [{ message: 'email must be an email', subscriberId: 'b-2' }] })
    expect((await api().get('/v2/subscribers/b-1').set(auth)).body.email).toBe('b1@example.com')
    expect((await api().get(`/v2/subscribers/${ADA}`).set(auth)).body.lastName).toBe('King')
    expect((await api().get('/v2/subscribers/b-2').set(auth)).status).toBe(404)
  })

  it('refuses more than 500 with a 422, nothing created', async () => {
    const auth = freshTenant()
    const subscribers = Array.from({ length: 501 }, (_, i) => ({ subscriberId: `many-${i}` }))
    const res = await api().post('/v1/subscribers/bulk').set(auth).send({ subscribers })
    expect(res.status).toBe(422)
    expect(res.body.errors.general.messages).toEqual(['subscribers must contain no more than 500 elements'])
    expect((await api().get('/v2/subscribers/many-0').set(auth)).status).toBe(404)
  })
})

describe('PATCH /v2/subscribers/{subscriberId}', () => {
  it('sets the fields sent, null clears, data is replaced whole', async () => {
    const auth = freshTenant()
    await create(auth, { subscriberId: 'p-1', firstName: 'A', phone: '+1', data: { a: 1, b: 2 } })
    const res = await api().patch('/v2/subscribers/p-1').set(auth).send({ phone: null, data: { c: 3 }, locale: 'de-DE' })
    expect(res.status).toBe(200)
    await expectContract('SubscribersController_patchSubscriber', res, 'novu')
    expect(res.body).toMatchObject({ firstName: 'A', phone: null, data: { c: 3 }, locale: 'de-DE' })
    expect((await api().get('/v2/subscribers/p-1').set(auth)).body).toEqual(res.body)
  })

  it('answers 404 for an unknown subscriber', async () => {
    const res = await api().patch('/v2/subscribers/nobody').set(freshTenant()).send({ firstName: 'X' })
    expect(res.status).toBe(404)
    expect(res.body.message).toBe('Subscriber nobody was not found')
  })
})

describe('DELETE /v2/subscribers/{subscriberId}', () => {
  it('deletes the subscriber and its messages; the id can be created again with a new _id', async () => {
    const auth = freshTenant()
    const before = await readState(server.url, auth)
    expect(before.messages.some((m) => m._subscriberId === ADA_ID)).toBe(true)
    const res = await api().delete(`/v2/subscribers/${ADA}`).set(auth)
    expect(res.status).toBe(200)
    await expectContract('SubscribersController_removeSubscriber', res, 'novu')
    expect(res.body).toEqual({ acknowledged: true, status: 'deleted' })
    expect((await api().get(`/v2/subscribers/${ADA}`).set(auth)).status).toBe(404)
    const after = await readState(server.url, auth)
    expect(after.messages.some((m) => m._subscriberId === ADA_ID)).toBe(false)
    expect(after.messages.length).toBeGreaterThan(0)
    expect(after.subscribers.some((s) => s.subscriberId === GRACE)).toBe(true)
    const again = await create(auth, { subscriberId: ADA })
    expect(again.status).toBe(201)
    expect(again.body._id).not.toBe(ADA_ID)
  })

  it('answers 404 for an unknown subscriber', async () => {
    const res = await api().delete('/v2/subscribers/nobody').set(freshTenant())
    expect(res.status).toBe(404)
    expect(res.body.message).toBe('Subscriber was not found')
  })
})

describe('GET /v2/subscribers', () => {
  async function search(auth: { Authorization: string }, query: Record<string, string | number>) {
    const res = await api().get('/v2/subscribers').query(query).set(auth)
    if (res.status === 200) await expectContract('SubscribersController_searchSubscribers', res, 'novu')
    return res
  }

  it('filters by email, phone and name as case-insensitive substrings, subscriberId exactly', async () => {
    const auth = freshTenant()
    await create(auth, { subscriberId: 's-1', firstName: 'Zed', lastName: 'Quux', email: 'ZQ@Example.org', phone: '+4915550001' })
    expect((await search(auth, { email: 'zq@example' })).body.data.map((s: { subscriberId: string }) => s.subscriberId)).toEqual(['s-1'])
    expect((await search(auth, { name: 'zed qu' })).body.data.map((s: { subscriberId: string }) => s.subscriberId)).toEqual(['s-1'])
    expect((await search(auth, { phone: '15550001' })).body.totalCount).toBe(1)
    expect((await search(auth, { subscriberId: 's-' })).body.totalCount).toBe(0)
    expect((await search(auth, { subscriberId: 's-1' })).body.totalCount).toBe(1)
  })

  it('pages with cursors: walking next visits every subscriber once, in order; previous walks back', async () => {
    const auth = freshTenant()
    const first = await search(auth, { limit: 7 })
    expect(first.status).toBe(200)
    expect(first.body.previous).toBeNull()
    const total = first.body.totalCount as number
    const seen: string[] = first.body.data.map((s: { _id: string }) => s._id)
    let page = first.body
    while (page.next) {
      page = (await search(auth, { limit: 7, after: page.next })).body
      seen.push(...page.data.map((s: { _id: string }) => s._id))
    }
    expect(seen).toHaveLength(total)
    expect(new Set(seen).size).toBe(total)
    expect(seen).toEqual([...seen].sort().reverse())
    const back = await search(auth, { limit: 7, before: page.previous })
    expect(back.body.data.map((s: { _id: string }) => s._id)).toEqual(seen.slice(-page.data.length - 7, -page.data.length))
    const ascending = await search(auth, { limit: 3, orderDirection: 'ASC' })
    expect(ascending.body.data.map((s: { _id: string }) => s._id)).toEqual([...seen].reverse().slice(0, 3))
  })

  it('answers 400 for both cursors, an empty page for an unknown one, 422 for a limit out of range', async () => {
    const auth = freshTenant()
    const both = await search(auth, { after: ADA_ID, before: ADA_ID })
    expect(both.status).toBe(400)
    expect(both.body.message).toBe('Cannot specify both "before" and "after" cursors at the same time.')
    expect((await search(auth, { after: 'ffffffffffffffffffffffff' })).body).toEqual({ data: [], next: null, previous: null, totalCount: 0, totalCountCapped: false })
    const big = await search(auth, { limit: 101 })
    expect(big.status).toBe(422)
    expect(big.body.errors.general.messages).toEqual(['limit must not be greater than 100'])
  })

  it('lists the created and leaves out the deleted', async () => {
    const auth = freshTenant()
    await create(auth, { subscriberId: 'listed', email: 'listed-one@example.net' })
    expect((await search(auth, { email: 'listed-one' })).body.totalCount).toBe(1)
    await api().delete('/v2/subscribers/listed').set(auth)
    expect((await search(auth, { email: 'listed-one' })).body.totalCount).toBe(0)
  })
})
