import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { components } from '../../src/contract/generated/admin-types.ts'
import type { MockServer } from '../../src/app/create-mock-server.ts'
import { expectContract } from '../helpers/expect-contract.ts'
import { readState } from '../helpers/read-state.ts'
import { freshTenant, startTestServer } from '../helpers/start-test-server.ts'
import { ADA, adaMessage, GRACE } from '../helpers/well-known.ts'

type Auth = ReturnType<typeof freshTenant>
type FaultRule = components['schemas']['FaultRule']

const MARK_AS = `/v1/subscribers/${ADA}/messages/mark-as`
const M6 = adaMessage(6) // seen and unread in the seed
const ON_GET = { operationId: 'getSubscriber' }
const ON_MARK = { operationId: 'markMessagesAs' }

let server: MockServer
beforeAll(async () => {
  server = await startTestServer()
})
afterAll(() => server.close())

const on = () => request(server.url)
const newKey = () => `key-${crypto.randomUUID()}`

/** One call: its status asserted, its body checked against the API or admin document. */
async function check(operationId: string, req: request.Test, status: number, document: 'api' | 'admin' = 'api') {
  const res = await req
  expect(res.status, `${operationId} ${JSON.stringify(res.body).slice(0, 300)}`).toBe(status)
  await expectContract(operationId, res, document)
  return res
}
const addFault = (auth: Auth, rule: object, status = 201) => check('addFault', on().post('/__admin/faults').set(auth).send(rule), status, 'admin')
const listFaults = async (auth: Auth): Promise<FaultRule[]> =>
  (await check('listFaults', on().get('/__admin/faults').set(auth), 200, 'admin')).body.faults
const getSub = (auth: Auth, status: number, id = ADA) => check('getSubscriber', on().get(`/v2/subscribers/${id}`).set(auth), status)
function markAs(auth: Auth, markAs: string, status: number, key?: string) {
  const req = on().post(MARK_AS).set(auth)
  return check('markMessagesAs', (key === undefined ? req : req.set('idempotency-key', key)).send({ messageId: M6, markAs }), status)
}
const message6 = async (auth: Auth) => (await readState(server.url, auth)).messages.find((m) => m._id === M6)!
async function timed<T>(run: () => Promise<T>): Promise<[T, number]> {
  const started = performance.now()
  const result = await run()
  return [result, performance.now() - started]
}
async function statusesOf(auth: Auth, calls: number): Promise<number[]> {
  const seen: number[] = []
  for (let i = 0; i < calls; i++) seen.push((await on().get(`/v2/subscribers/${ADA}`).set(auth)).status)
  return seen
}

describe('/__admin/faults: add, list, remove, clear', () => {
  it('adds rules with counters, lists them oldest first, removes one and clears the rest', async () => {
    const auth = freshTenant()
    const a = (await addFault(auth, { match: ON_GET, respond: { status: 404 } })).body as FaultRule
    expect(a).toMatchObject({ id: expect.any(String), match: ON_GET, respond: { status: 404 }, matched: 0, applied: 0 })
    const b = (await addFault(auth, { match: ON_MARK, latencyMs: 10 })).body as FaultRule
    expect(b.id).not.toBe(a.id)
    expect(await listFaults(auth)).toEqual([a, b])

    await getSub(auth, 404)
    const removed = await check('removeFault', on().delete(`/__admin/faults/${a.id}`).set(auth), 200, 'admin')
    expect(removed.body).toEqual({ ...a, matched: 1, applied: 1 })
    expect(await listFaults(auth)).toEqual([b])
    await getSub(auth, 200)

    await check('removeFault', on().delete(`/__admin/faults/${a.id}`).set(auth), 404, 'admin')
    await addFault(auth, { match: ON_GET, latencyMs: 1 })
    expect((await check('clearFaults', on().delete('/__admin/faults').set(auth), 200, 'admin')).body).toEqual({ cleared: 2 })
    expect(await listFaults(auth)).toEqual([])
  })

  it('keeps rules per tenant', async () => {
    const [mine, other] = [freshTenant(), freshTenant()]
    await addFault(mine, { match: ON_GET, respond: { status: 404 } })
    expect(await listFaults(other)).toEqual([])
    await getSub(other, 200)
    await getSub(mine, 404)
  })

  it.each([
    ['a status getSubscriber does not document', { match: ON_GET, respond: { status: 409 } }],
    ['a status some operation does not document, with no operationId', { respond: { status: 404 } }],
    ['an unknown operationId', { match: { operationId: 'nope' }, respond: { status: 500 } }],
    ['a preset with an overriding status getSubscriber does not document', { preset: 'flaky', match: ON_GET, respond: { status: 409 } }],
    ['a preset whose status getSubscriber does not document', { preset: 'idempotency-in-progress', match: ON_GET }],
  ])('refuses %s with 422', async (_name, rule) => {
    const auth = freshTenant()
    await addFault(auth, rule, 422)
    expect(await listFaults(auth)).toEqual([])
  })
})

describe('matching and effects', () => {
  it('matches by method and by path', async () => {
    const auth = freshTenant()
    await addFault(auth, { match: { method: 'POST' }, respond: { status: 503 }, times: 1 })
    await getSub(auth, 200)
    await markAs(auth, 'read', 503)
    // Without an operationId the status must be one every operation documents.
    await addFault(auth, { match: { path: `/v2/subscribers/${GRACE}` }, respond: { status: 503 } })
    await getSub(auth, 200)
    await getSub(auth, 503, GRACE)
  })

  it('matches by body: a mark-as to read is faulted, one to seen is not', async () => {
    const auth = freshTenant()
    await addFault(auth, { match: { ...ON_MARK, bodyMatches: { markAs: 'read' } }, respond: { status: 503 } })
    await markAs(auth, 'read', 503)
    await markAs(auth, 'seen', 201)
    expect(await message6(auth)).toMatchObject({ read: false, seen: true })
  })

  it('responds with a custom body and headers', async () => {
    const auth = freshTenant()
    const body = { statusCode: 404, timestamp: '2025-01-01T00:00:00.000Z', path: '/custom', message: 'Gone fishing', error: 'Not Found' }
    await addFault(auth, { match: ON_GET, respond: { status: 404, body, headers: { 'X-Fault': 'yes' } } })
    const res = await getSub(auth, 404)
    expect(res.body).toEqual(body)
    expect(res.headers['x-fault']).toBe('yes')
  })

  it('times: 2 applies twice, then the rule is gone', async () => {
    const auth = freshTenant()
    await addFault(auth, { match: ON_GET, respond: { status: 404 }, times: 2 })
    await getSub(auth, 404)
    expect(await listFaults(auth)).toMatchObject([{ times: 1, matched: 1, applied: 1 }])
    await getSub(auth, 404)
    expect(await listFaults(auth)).toEqual([])
    await getSub(auth, 200)
  })

  it('everyNth: 3 faults calls 3 and 6 only', async () => {
    const auth = freshTenant()
    await addFault(auth, { match: ON_GET, respond: { status: 404 }, everyNth: 3 })
    expect(await statusesOf(auth, 7)).toEqual([200, 200, 404, 200, 200, 404, 200])
    expect(await listFaults(auth)).toMatchObject([{ matched: 7, applied: 2 }])
  })

  it.each([
    ['fixed', 300, 300],
    ['a range', { min: 200, max: 400 }, 200],
  ])('adds %s latency to the real answer', async (_name, latencyMs, lower) => {
    const auth = freshTenant()
    await addFault(auth, { match: ON_GET, latencyMs })
    const [res, ms] = await timed(() => getSub(auth, 200))
    expect(ms).toBeGreaterThanOrEqual(lower - 20)
    expect(res.body.subscriberId).toBe(ADA)
  })

  it('drop: closes the connection without an answer', async () => {
    const auth = freshTenant()
    await addFault(auth, { match: ON_GET, drop: true, times: 1 })
    const error = await on().get(`/v2/subscribers/${ADA}`).set(auth).then(() => undefined, (e: Error & { code?: string }) => e)
    expect(error, 'the call must fail').toBeDefined()
    expect(`${error!.code} ${error!.message}`).toMatch(/ECONNRESET|socket hang up/)
    await getSub(auth, 200)
  })

  it('journals an injected answer with its status', async () => {
    const auth = freshTenant()
    await addFault(auth, { match: ON_GET, respond: { status: 503 } })
    await getSub(auth, 503)
    const res = await check('listRequests', on().get('/__admin/requests?operationId=getSubscriber').set(auth), 200, 'admin')
    expect(res.body.requests).toMatchObject([{ operationId: 'getSubscriber', status: 503 }])
  })
})

describe('presets', () => {
  it('rate-limited answers 429 with the live service\'s ErrorDto, Retry-After equal to RateLimit-Reset', async () => {
    const auth = freshTenant()
    const rule = (await addFault(auth, { preset: 'rate-limited', match: ON_GET })).body as FaultRule
    expect(rule.preset).toBe('rate-limited')
    const res = await getSub(auth, 429)
    expect(res.body).toMatchObject({ statusCode: 429, message: 'API rate limit exceeded', error: 'Too Many Requests' })
    expect(res.headers['retry-after']).toMatch(/^[1-9]\d*$/)
    expect(res.headers['retry-after']).toBe(res.headers['ratelimit-reset'])
  })

  it('a 429 rule with its own Retry-After tells the same wait in RateLimit-Reset', async () => {
    const auth = freshTenant()
    await addFault(auth, { match: ON_GET, respond: { status: 429, headers: { 'Retry-After': '7' } } })
    const res = await getSub(auth, 429)
    expect([res.headers['retry-after'], res.headers['ratelimit-reset']]).toEqual(['7', '7'])
  })

  it('unavailable answers 503 with a JSON string and Retry-After', async () => {
    const auth = freshTenant()
    await addFault(auth, { preset: 'unavailable', match: ON_GET })
    const res = await getSub(auth, 503)
    expect(res.body).toBe('Please wait some time, then try again.')
    expect(res.headers['retry-after']).toMatch(/^\d+$/)
  })

  it('flaky fails every 3rd call with a 500 ErrorDto', async () => {
    const auth = freshTenant()
    await addFault(auth, { preset: 'flaky', match: ON_GET })
    expect(await statusesOf(auth, 6)).toEqual([200, 200, 500, 200, 200, 500])
    const third = await getSub(auth, 200).then(() => getSub(auth, 200)).then(() => getSub(auth, 500))
    expect(third.body).toMatchObject({ statusCode: 500, error: 'Internal Server Error' })
  })

  it('slow adds at least 300 ms', async () => {
    const auth = freshTenant()
    await addFault(auth, { preset: 'slow', match: ON_GET })
    const [, ms] = await timed(() => getSub(auth, 200))
    expect(ms).toBeGreaterThanOrEqual(280)
  })

  it('idempotency-in-progress answers 409 for the key; changes nothing; is not replayed', async () => {
    const auth = freshTenant()
    const key = newKey()
    const rule = (await addFault(auth, { preset: 'idempotency-in-progress', match: ON_MARK })).body as FaultRule
    const before = await readState(server.url, auth)
    const res = await markAs(auth, 'read', 409, key)
    expect(res.body.message).toBe(`Request with key "${key}" is currently being processed. Please retry after 1 second`)
    expect(res.headers['retry-after']).toBe('1')
    expect(res.headers.link).toBe('https://docs.novu.co/additional-resources/idempotency')
    expect(await readState(server.url, auth)).toEqual(before)

    await check('removeFault', on().delete(`/__admin/faults/${rule.id}`).set(auth), 200, 'admin')
    const real = await markAs(auth, 'read', 201, key)
    expect(real.headers['idempotency-replay']).toBeUndefined()
    expect(real.body[0]).toMatchObject({ _id: M6, read: true })
    expect(await message6(auth)).toMatchObject({ read: true })
  })
})

describe('the idempotency 409 of docs/behaviour.md §4, with injected latency', () => {
  it('answers 409 to a second call while the first waits, then replays the first', async () => {
    const auth = freshTenant()
    const key = newKey()
    // Long enough that the first is still waiting when the second arrives, however busy the machine:
    // the second is sent once the server lists the tenant, which the first call's start makes it do.
    await addFault(auth, { match: ON_MARK, latencyMs: 5000, times: 1 })
    const first = markAs(auth, 'read', 201, key)
    await expect.poll(async () => (await on().get('/__admin/tenants')).body.tenants.some((t: { apiKey: string }) => auth.Authorization.endsWith(t.apiKey)), { timeout: 4000 }).toBe(true)
    const second = await markAs(auth, 'read', 409, key)
    expect(second.body.message).toBe(`Request with key "${key}" is currently being processed. Please retry after 1 second`)
    expect(second.headers['retry-after']).toBe('1')
    expect(second.headers.link).toBe('https://docs.novu.co/additional-resources/idempotency')

    const done = await first
    expect(done.headers['idempotency-replay']).toBeUndefined()
    expect(done.body[0]).toMatchObject({ _id: M6, read: true })

    const third = await markAs(auth, 'read', 201, key)
    expect(third.headers['idempotency-replay']).toBe('true')
    expect(third.text).toBe(done.text)
    // Changed once: the stored date is the first call's own.
    expect(await message6(auth)).toMatchObject({ read: true, lastReadDate: done.body[0].lastReadDate })
    expect(await listFaults(auth)).toEqual([])
  })
})
