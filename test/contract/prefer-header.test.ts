import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { MockServer } from '../../src/app/create-mock-server.ts'
import { loadContracts } from '../../src/app/create-state.ts'
import { expectContract } from '../helpers/expect-contract.ts'
import { readState } from '../helpers/read-state.ts'
import { freshTenant, startTestServer } from '../helpers/start-test-server.ts'
import { ADA, adaMessage, GRACE } from '../helpers/well-known.ts'

type Auth = ReturnType<typeof freshTenant>

const MARK_AS = `/v1/subscribers/${ADA}/messages/mark-as`
const M6 = adaMessage(6) // seen and unread in the seed

let server: MockServer
beforeAll(async () => {
  server = await startTestServer()
})
afterAll(() => server.close())

/** One call: its status asserted, its body checked against the API document. */
async function call(operationId: string, req: request.Test, status: number) {
  const res = await req
  expect(res.status, `${operationId} ${JSON.stringify(res.body).slice(0, 300)}`).toBe(status)
  await expectContract(operationId, res)
  return res
}

function getSubscriber(auth: Auth, status: number, prefer?: string, id = ADA) {
  const req = request(server.url).get(`/v2/subscribers/${id}`).set(auth)
  return call('getSubscriber', prefer === undefined ? req : req.set('Prefer', prefer), status)
}

function markAs(auth: Auth, body: object, status: number, headers: Record<string, string> = {}) {
  return call('markMessagesAs', request(server.url).post(MARK_AS).set(auth).set(headers).send(body), status)
}

async function example(operationId: string, status: number): Promise<unknown> {
  const value = (await loadContracts()).api.operations.get(operationId)!.example(status)
  expect(value, `example of ${operationId} ${status}`).toBeDefined()
  return value
}

describe('Prefer: code=<status>', () => {
  it('answers a documented error status without running the operation', async () => {
    const auth = freshTenant()
    const res = await getSubscriber(auth, 404, 'code=404')
    expect(res.body).toMatchObject({ statusCode: 404, error: 'Not Found', path: `/v2/subscribers/${ADA}` })
    expect(typeof res.body.message).toBe('string')
    // Without the header, the subscriber is there.
    await getSubscriber(auth, 200)
  })

  it('answers the document example for a success status, even for an unknown subscriber', async () => {
    const auth = freshTenant()
    await getSubscriber(auth, 404, undefined, 'nobody')
    const res = await getSubscriber(auth, 200, 'code=200', 'nobody')
    expect(res.body).toEqual(await example('getSubscriber', 200))
  })

  it('answers an array example for mark-as and changes no state', async () => {
    const auth = freshTenant()
    const before = await readState(server.url, auth)
    const res = await markAs(auth, { messageId: M6, markAs: 'read' }, 201, { Prefer: 'code=201' })
    expect(Array.isArray(res.body)).toBe(true)
    expect(res.body).toEqual(await example('markMessagesAs', 201))
    expect(await readState(server.url, auth)).toEqual(before)
  })

  it('does not keep a forced answer for its idempotency key: a retry without Prefer runs for real', async () => {
    const auth = freshTenant()
    const key = `key-${crypto.randomUUID()}`
    const body = { messageId: M6, markAs: 'read' }
    const forced = await markAs(auth, body, 201, { Prefer: 'code=201', 'idempotency-key': key })
    expect(forced.body).toEqual(await example('markMessagesAs', 201))

    const real = await markAs(auth, body, 201, { 'idempotency-key': key })
    expect(real.headers['idempotency-replay']).toBeUndefined()
    expect(real.body).toHaveLength(1)
    expect(real.body[0]).toMatchObject({ _id: M6, read: true, seen: true })
    const stored = (await readState(server.url, auth)).messages.find((m) => m._id === M6)
    expect(stored).toMatchObject({ read: true, seen: true })

    // Now the real answer is the one kept.
    const replay = await markAs(auth, body, 201, { 'idempotency-key': key })
    expect(replay.headers['idempotency-replay']).toBe('true')
    expect(replay.body).toEqual(real.body)
  })

  it('gives a 422 body with errors.general for code=422', async () => {
    const res = await getSubscriber(freshTenant(), 422, 'code=422')
    expect(res.body.errors.general.messages.length).toBeGreaterThan(0)
  })

  it('gives a JSON string body for code=503', async () => {
    const res = await getSubscriber(freshTenant(), 503, 'code=503')
    expect(res.headers['content-type']).toMatch(/^application\/json/)
    expect(res.body).toBe('Please wait some time, then try again.')
  })

  it('gives the live service\'s ErrorDto for code=429, Retry-After equal to RateLimit-Reset', async () => {
    const res = await getSubscriber(freshTenant(), 429, 'code=429')
    expect(res.body).toMatchObject({ statusCode: 429, message: 'API rate limit exceeded', error: 'Too Many Requests' })
    expect(res.headers['retry-after']).toMatch(/^[1-9]\d*$/)
    expect(res.headers['retry-after']).toBe(res.headers['ratelimit-reset'])
  })
})

describe('Prefer: what cannot be honoured is a 422 under general', () => {
  /** The one message of a 422 for the Prefer header. */
  async function refusal(res: request.Response): Promise<string> {
    expect(res.body.message).toBe('Validation Error')
    expect(Object.keys(res.body.errors)).toEqual(['general'])
    expect(res.body.errors.general.value).toBe('No Value Recorded')
    expect(res.body.errors.general.messages).toHaveLength(1)
    expect(res.headers['preference-applied']).toBeUndefined()
    return res.body.errors.general.messages[0]
  }

  it('refuses a status the operation does not document (409 on getSubscriber)', async () => {
    const res = await getSubscriber(freshTenant(), 422, 'code=409')
    expect(await refusal(res)).toBe('Prefer code=409 cannot be honoured: getSubscriber documents no status 409')
  })

  it('refuses code=200 on mark-as, whose success is 201, and changes nothing', async () => {
    const auth = freshTenant()
    const before = await readState(server.url, auth)
    const res = await markAs(auth, { messageId: M6, markAs: 'read' }, 422, { Prefer: 'code=200' })
    expect(await refusal(res)).toMatch(/^Prefer code=200 cannot be honoured/)
    expect(await readState(server.url, auth)).toEqual(before)
  })

  it.each([
    ['code=abc', 'Prefer code=abc cannot be honoured: getSubscriber documents no status abc'],
    ['delay=soon', 'Prefer delay=soon cannot be honoured: delay takes a whole number of milliseconds from 0 to 60000'],
    ['delay=60001', 'Prefer delay=60001 cannot be honoured: delay takes a whole number of milliseconds from 0 to 60000'],
    ['example=nope', 'Prefer example=nope cannot be honoured: the document has no example named "nope" for getSubscriber 200 (it names grace, deleted)'],
    ['example=nope, code=200', 'Prefer example=nope, code=200 cannot be honoured: the document has no example named "nope" for getSubscriber 200 (it names grace, deleted)'],
  ])('refuses Prefer: %s, naming what it accepts', async (prefer, message) => {
    expect(await refusal(await getSubscriber(freshTenant(), 422, prefer))).toBe(message)
  })
})

describe('Prefer: example= names the examples the operation has', () => {
  it('says when the operation names none', async () => {
    const res = await markAs(freshTenant(), { messageId: M6, markAs: 'read' }, 422, { Prefer: 'example=foo' })
    expect(res.body.errors.general.messages).toEqual(['Prefer example=foo cannot be honoured: the document has no example named "foo" for markMessagesAs 201 (it names none)'])
  })

  it.each(['grace', 'deleted'])('answers with each example it names (%s)', async (name) => {
    const res = await getSubscriber(freshTenant(), 200, `example=${name}`)
    expect(res.headers['preference-applied']).toBe(`example=${name}`)
  })
})

describe('Prefer: unknown preferences and Preference-Applied', () => {
  it.each(['return=minimal', 'respond-async', 'foo=bar', 'handling=strict; foo="x"'])('ignores %s: the real answer, nothing applied', async (prefer) => {
    const auth = freshTenant()
    const plain = await getSubscriber(auth, 200)
    const res = await getSubscriber(auth, 200, prefer)
    expect(res.body).toEqual(plain.body)
    expect(res.headers['preference-applied']).toBeUndefined()
  })

  it('names what it honoured, and only that, beside what it ignored', async () => {
    const res = await getSubscriber(freshTenant(), 404, 'return=minimal, code=404, respond-async')
    expect(res.headers['preference-applied']).toBe('code=404')
  })

  it('names a delay it honoured on the real answer of a write', async () => {
    const res = await markAs(freshTenant(), { messageId: M6, markAs: 'read' }, 201, { Prefer: 'delay=0, return=representation' })
    expect(res.headers['preference-applied']).toBe('delay=0')
    expect(res.body[0]).toMatchObject({ _id: M6, read: true })
  })

  it('names an example it answered with', async () => {
    const res = await getSubscriber(freshTenant(), 200, 'example=grace')
    expect(res.headers['preference-applied']).toBe('example=grace')
    expect(res.body.subscriberId).toBe(GRACE)
  })
})

describe('Prefer: delay=<ms>', () => {
  it('delays the real answer of a read', async () => {
    const auth = freshTenant()
    const plain = await getSubscriber(auth, 200, undefined, GRACE)
    const started = performance.now()
    const res = await getSubscriber(auth, 200, 'delay=300', GRACE)
    expect(performance.now() - started).toBeGreaterThanOrEqual(280)
    expect(res.body).toEqual(plain.body)
  })

  it('delays the real answer of a write, which still runs', async () => {
    const auth = freshTenant()
    const started = performance.now()
    const res = await markAs(auth, { messageId: M6, markAs: 'read' }, 201, { Prefer: 'delay=300' })
    expect(performance.now() - started).toBeGreaterThanOrEqual(280)
    expect(res.body[0]).toMatchObject({ _id: M6, read: true })
    const stored = (await readState(server.url, auth)).messages.find((m) => m._id === M6)
    expect(stored).toMatchObject({ read: true, lastReadDate: res.body[0].lastReadDate })
  })
})
