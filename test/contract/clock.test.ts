import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { MockServer } from '../../src/app/create-mock-server.ts'
import { expectContract } from '../helpers/expect-contract.ts'
import { freshTenant, startTestServer } from '../helpers/start-test-server.ts'

type Auth = { Authorization: string }

const T0 = '2025-03-01T12:00:00.000Z'
const HOUR = 60 * 60 * 1000

let server: MockServer
beforeAll(async () => {
  server = await startTestServer()
})
afterAll(() => server.close())

const getClock = async (auth: Auth) => {
  const res = await request(server.url).get('/__admin/clock').set(auth)
  expect(res.status).toBe(200)
  await expectContract('getClock', res, 'admin')
  return res.body as { now: string; frozen: boolean }
}
const setClock = (auth: Auth, body: object) => request(server.url).put('/__admin/clock').set(auth).send(body)
const advance = (auth: Auth, body: object) => request(server.url).post('/__admin/clock/advance').set(auth).send(body)
const upsertSlack = (auth: Auth) =>
  request(server.url).patch('/v1/subscribers/demo-subscriber-1/credentials').set(auth).send({ providerId: 'slack', credentials: { webhookUrl: 'https://hooks.example.com/a' } })

describe('/__admin/clock', () => {
  it('is the real clock, running, until a test sets it', async () => {
    const before = Date.now()
    const clock = await getClock(freshTenant())
    expect(clock.frozen).toBe(false)
    expect(Date.parse(clock.now)).toBeGreaterThanOrEqual(before)
    expect(Date.parse(clock.now)).toBeLessThanOrEqual(Date.now())
  })

  it('freezes at the time PUT gives (frozen by default), and GET answers it as long as it stands', async () => {
    const auth = freshTenant()
    const put = await setClock(auth, { now: '2025-03-01T13:00:00+01:00' })
    expect(put.status).toBe(200)
    await expectContract('setClock', put, 'admin')
    expect(put.body).toEqual({ now: T0, frozen: true })
    await new Promise((resolve) => setTimeout(resolve, 30))
    expect(await getClock(auth)).toEqual({ now: T0, frozen: true })
  })

  it('runs at real speed from the time PUT gives with frozen false', async () => {
    const auth = freshTenant()
    expect((await setClock(auth, { now: T0, frozen: false })).body).toMatchObject({ frozen: false })
    await new Promise((resolve) => setTimeout(resolve, 30))
    const { now, frozen } = await getClock(auth)
    expect(frozen).toBe(false)
    expect(Date.parse(now) - Date.parse(T0)).toBeGreaterThanOrEqual(25)
    expect(Date.parse(now) - Date.parse(T0)).toBeLessThan(HOUR)
  })

  it('advances by exactly ms, frozen or running as it is', async () => {
    const auth = freshTenant()
    await setClock(auth, { now: T0 })
    const res = await advance(auth, { ms: 25 * HOUR + 1 })
    expect(res.status).toBe(200)
    await expectContract('advanceClock', res, 'admin')
    expect(res.body).toEqual({ now: '2025-03-02T13:00:00.001Z', frozen: true })
    expect((await advance(auth, { ms: 0 })).body).toEqual(res.body)
  })

  it('DELETE puts the tenant back on the real clock', async () => {
    const auth = freshTenant()
    await setClock(auth, { now: T0 })
    const res = await request(server.url).delete('/__admin/clock').set(auth)
    expect(res.status).toBe(200)
    await expectContract('useRealTime', res, 'admin')
    expect(res.body.frozen).toBe(false)
    expect(Math.abs(Date.parse(res.body.now) - Date.now())).toBeLessThan(HOUR)
  })

  it('keeps each tenant on its own clock', async () => {
    const [a, b] = [freshTenant(), freshTenant()]
    await setClock(a, { now: T0 })
    expect((await getClock(b)).frozen).toBe(false)
  })

  it.each([
    ['a date that is no date', 'put', { now: 'yesterday' }],
    ['a leap second no clock shows', 'put', { now: '2025-06-30T23:59:60Z' }],
    ['no now', 'put', { frozen: true }],
    ['frozen not a boolean', 'put', { now: T0, frozen: 'yes' }],
    ['a negative ms', 'advance', { ms: -1 }],
    ['a fraction of a ms', 'advance', { ms: 1.5 }],
    ['ms as text', 'advance', { ms: '10' }],
    ['no ms', 'advance', {}],
    ['a time past the last date', 'advance', { ms: 17280000000000000 }],
  ])('refuses %s with a 422, nothing changed', async (_what, route, body) => {
    const auth = freshTenant()
    await setClock(auth, { now: T0 })
    const res = route === 'put' ? await setClock(auth, body) : await advance(auth, body)
    expect(res.status).toBe(422)
    await expectContract(route === 'put' ? 'setClock' : 'advanceClock', res, 'admin')
    expect(await getClock(auth)).toEqual({ now: T0, frozen: true })
  })

  it('needs the tenant: 401 without Authorization', async () => {
    const res = await request(server.url).get('/__admin/clock')
    expect(res.status).toBe(401)
    await expectContract('getClock', res, 'admin')
  })
})

describe('what follows the tenant’s clock', () => {
  it('stamps records, error bodies and the journal with the tenant’s time', async () => {
    const auth = freshTenant()
    await setClock(auth, { now: T0 })
    const written = await upsertSlack(auth)
    expect(written.status).toBe(200)
    await expectContract('upsertSubscriberCredentials', written)
    expect(written.body.updatedAt).toBe(T0)
    const missing = await request(server.url).get('/v2/subscribers/nobody-here').set(auth)
    expect(missing.status).toBe(404)
    expect(missing.body.timestamp).toBe(T0)
    const marked = await request(server.url).post('/v1/subscribers/demo-subscriber-1/messages/mark-as').set(auth).send({ messageId: '64f200000000000000000001', markAs: 'read' })
    expect(marked.status).toBe(201)
    expect(marked.body[0].lastReadDate).toBe(T0)
    const journal = await request(server.url).get('/__admin/requests').set(auth)
    expect(journal.body.requests.map((entry: { time: string }) => entry.time)).toEqual([T0, T0, T0])
    const snapshot = await request(server.url).post('/__admin/snapshots').set(auth).send({ name: 'at-t0' })
    expect(snapshot.body.createdAt).toBe(T0)
  })

  it('reset puts the tenant back on the clock it started with (real, here)', async () => {
    const auth = freshTenant()
    await setClock(auth, { now: T0 })
    expect((await request(server.url).post('/__admin/reset').set(auth)).status).toBe(200)
    expect((await getClock(auth)).frozen).toBe(false)
  })
})

describe('--clock', () => {
  let started: MockServer
  const START = '2024-12-24T18:00:00.000Z'
  beforeAll(async () => {
    started = await startTestServer({ clock: Date.parse(START) })
  })
  afterAll(() => started.close())

  it('starts every tenant frozen at that instant, and a reset goes back to it', async () => {
    const auth = freshTenant()
    const clock = () => request(started.url).get('/__admin/clock').set(auth)
    expect((await clock()).body).toEqual({ now: START, frozen: true })
    await request(started.url).post('/__admin/clock/advance').set(auth).send({ ms: HOUR })
    const written = await request(started.url).patch('/v1/subscribers/demo-subscriber-1/credentials').set(auth).send({ providerId: 'slack', credentials: { webhookUrl: 'https://hooks.example.com/b' } })
    expect(written.body.updatedAt).toBe('2024-12-24T19:00:00.000Z')
    await request(started.url).delete('/__admin/clock').set(auth)
    expect((await clock()).body.frozen).toBe(false)
    await request(started.url).post('/__admin/reset').set(auth)
    expect((await clock()).body).toEqual({ now: START, frozen: true })
  })

  it('stamps an answer that names no tenant (a 401) at the starting clock', async () => {
    const res = await request(started.url).get('/v2/subscribers/demo-subscriber-1')
    expect(res.status).toBe(401)
    expect(res.body.timestamp).toBe(START)
  })
})
