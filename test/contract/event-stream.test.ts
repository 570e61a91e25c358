import { once } from 'node:events'
import { connect } from 'node:net'
import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { components } from '../../src/contract/generated/admin-types.ts'
import { MAX_SUBSCRIBERS } from '../../src/journal/request-journal.ts'
import type { MockServer } from '../../src/app/create-mock-server.ts'
import { openEvents, type EventReader } from '../helpers/event-stream.ts'
import { expectContract } from '../helpers/expect-contract.ts'
import { freshTenant, startTestServer } from '../helpers/start-test-server.ts'
import { ADA, adaMessage } from '../helpers/well-known.ts'

type Auth = ReturnType<typeof freshTenant>
type Entry = components['schemas']['JournalEntry']

const M1 = adaMessage(1)
const MARK_PATH = `/v1/subscribers/${ADA}/messages/mark-as`

let server: MockServer
beforeAll(async () => {
  server = await startTestServer()
})
afterAll(() => server.close())

/** A stream of `auth`'s tenant, past its `ready` event (so the subscription is in place). */
async function follow(auth: Auth, target = server): Promise<EventReader> {
  const events = await openEvents(`${target.url}/__admin/events`, auth)
  expect(events.status).toBe(200)
  expect(await events.next()).toEqual({ event: 'ready', id: undefined, data: '{}' })
  return events
}
const markAs = (auth: Auth, body: object, headers: Record<string, string> = {}) =>
  request(server.url).post(MARK_PATH).set({ ...auth, ...headers }).send(body).expect(201)
const getSubscriber = (auth: Auth, id = ADA) => request(server.url).get(`/v2/subscribers/${id}`).set(auth)

describe('GET /__admin/events', () => {
  it('streams each journaled call of the tenant as a request event, the entry GET /__admin/requests shows', async () => {
    const auth = freshTenant()
    const events = await follow(auth)
    try {
      expect(events.headers.get('content-type')).toBe('text/event-stream; charset=utf-8')
      expect(events.headers.get('cache-control')).toBe('no-store')
      await markAs(auth, { messageId: M1, markAs: 'read' })
      await getSubscriber(auth, 'nobody').expect(404)
      const received = [await events.next(), await events.next()]
      const journal: Entry[] = (await request(server.url).get('/__admin/requests').set(auth).expect(200)).body.requests
      expect(received.map((e) => e?.event)).toEqual(['request', 'request'])
      expect(received.map((e) => e?.id)).toEqual(journal.map((entry) => String(entry.id)))
      expect(received.map((e) => JSON.parse(e!.data))).toEqual(journal)
      expect(journal.map((entry) => [entry.operationId, entry.status])).toEqual([['markMessagesAs', 201], ['getSubscriber', 404]])
    } finally {
      events.close()
    }
  })

  it('leaves the headers and bodies out with ?bodies=false (what the inspector page asks for), the rest of the entry as journaled', async () => {
    const auth = freshTenant()
    const events = await openEvents(`${server.url}/__admin/events?bodies=false`, auth)
    try {
      expect(events.status).toBe(200)
      expect((await events.next())?.event).toBe('ready')
      await markAs(auth, { messageId: M1, markAs: 'read' })
      const received = JSON.parse((await events.next())!.data) as Entry
      const [journaled] = (await request(server.url).get('/__admin/requests').set(auth).expect(200)).body.requests as Entry[]
      expect(journaled).toMatchObject({ requestBody: { messageId: M1, markAs: 'read' }, headers: { authorization: '[redacted]' } })
      const { requestBody, responseBody, headers, ...withoutBodies } = journaled!
      expect(received).toEqual(withoutBodies)
    } finally {
      events.close()
    }
  })

  it('answers a query the document does not allow with a 422, and opens no stream', async () => {
    const auth = freshTenant()
    const response = await request(server.url).get('/__admin/events?bodies=sometimes').set(auth).expect(422)
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8')
    await expectContract('streamEvents', response, 'admin')
    expect(JSON.stringify(response.body.errors)).toContain('bodies')
  })

  it('carries only the caller’s tenant: another key’s calls never appear', async () => {
    const mine = freshTenant()
    const theirs = freshTenant()
    const [my, their] = [await follow(mine), await follow(theirs)]
    try {
      await markAs(theirs, { messageId: M1, markAs: 'seen' })
      await getSubscriber(mine).expect(200)
      // Theirs was journaled first, so had it leaked it would come first on my stream.
      const first = await my.next()
      expect(JSON.parse(first!.data)).toMatchObject({ operationId: 'getSubscriber', path: `/v2/subscribers/${ADA}` })
      expect(await my.next(300)).toBeUndefined()
      expect(JSON.parse((await their.next())!.data)).toMatchObject({ operationId: 'markMessagesAs' })
      expect(await their.next(300)).toBeUndefined()
    } finally {
      my.close()
      their.close()
    }
  })

  it('never writes the API key or an idempotency key to the stream', async () => {
    const key = `stream-secret-${crypto.randomUUID()}`
    const auth = { Authorization: `ApiKey ${key}` }
    const idempotencyKey = `idem-${crypto.randomUUID()}`
    const events = await follow(auth)
    try {
      // The idempotency key also inside the body, where the journal redacts it (the call is a 422).
      await request(server.url).post(MARK_PATH).set({ ...auth, 'idempotency-key': idempotencyKey }).send({ messageId: [M1], markAs: idempotencyKey }).expect(422)
      const event = await events.next()
      expect(JSON.parse(event!.data).requestBody).toEqual({ messageId: [M1], markAs: '[redacted]' })
      expect(events.text()).not.toContain(idempotencyKey)
      expect(events.text()).not.toContain(key)
    } finally {
      events.close()
    }
  })

  it.each([
    [{}, 'Missing authorization header'],
    [{ Authorization: 'Bearer x' }, 'Invalid authentication scheme: "Bearer"'],
    [{ Authorization: 'ApiKey' }, 'Unauthorized'],
  ])('needs the Authorization header: %j gets a 401 ErrorDto, not a stream', async (headers, message) => {
    const res = await request(server.url).get('/__admin/events').set(headers)
    expect(res.status).toBe(401)
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8')
    await expectContract('streamEvents', res, 'admin')
    expect(res.body.message).toBe(message)
  })

  it('in strict mode, refuses a key the server does not accept', async () => {
    const strict = await startTestServer({ apiKeys: ['only-this'] })
    try {
      const res = await request(strict.url).get('/__admin/events').set({ Authorization: 'ApiKey other' })
      expect(res.status).toBe(401)
      expect(res.body.message).toBe('API Key not found')
      ;(await follow({ Authorization: 'ApiKey only-this' }, strict)).close()
    } finally {
      await strict.close()
    }
  })
})

describe('GET /__admin/events: a client that stops reading', () => {
  it('is disconnected once far behind, rather than buffered for without end', async () => {
    const auth = freshTenant()
    const socket = connect(server.port, '127.0.0.1')
    let broken = false
    socket.on('error', () => (broken = true)).on('close', () => (broken = true))
    socket.write(`GET /__admin/events HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${auth.Authorization}\r\n\r\n`)
    await once(socket, 'data')
    socket.pause()
    // Large entries (bodies cut at 16 KiB) until the kernel's buffers and the server's 1 MiB fill;
    // a write of ours is refused once the server has dropped the connection, even while paused.
    const messageId = Array.from({ length: 1000 }, (_, i) => `64f2000000000000000${String(i + 1).padStart(5, '0')}`)
    let calls = 0
    try {
      while (!broken && calls < 3000) {
        for (let i = 0; i < 50; i++, calls++) await markAs(auth, { messageId, markAs: 'seen' })
        socket.write('\r\n')
        await new Promise((resolve) => setTimeout(resolve, 20))
      }
      expect(broken, `still connected after ${calls} calls`).toBe(true)
    } finally {
      socket.destroy()
    }
  }, 60_000)
})

describe(`GET /__admin/events: at most ${MAX_SUBSCRIBERS} streams`, () => {
  let bounded: MockServer
  beforeAll(async () => {
    bounded = await startTestServer()
  })
  afterAll(() => bounded.close())

  it('answers 503 beyond the bound when no key holds more than the caller, and frees a place when a client disconnects', async () => {
    const tenants = Array.from({ length: MAX_SUBSCRIBERS }, () => freshTenant())
    const open = await Promise.all(tenants.map((tenant) => follow(tenant, bounded)))
    const refused = await request(bounded.url).get('/__admin/events').set(tenants[0]!)
    expect(refused.status).toBe(503)
    expect(refused.headers['retry-after']).toBe('5')
    await expectContract('streamEvents', refused, 'admin')

    open.forEach((events) => events.close())
    // Every disconnect unsubscribes: a full set of streams opens again (a leak would refuse them).
    // Until they open, with a bound that only catches a leak, never a busy machine.
    const deadline = Date.now() + 30_000
    let again: EventReader[] = []
    while (Date.now() < deadline) {
      again.forEach((events) => events.close())
      again = await Promise.all(Array.from({ length: MAX_SUBSCRIBERS }, () => openEvents(`${bounded.url}/__admin/events`, freshTenant())))
      if (again.every((events) => events.status === 200)) break
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    expect(again.map((events) => events.status)).toEqual(Array(MAX_SUBSCRIBERS).fill(200))
    again.forEach((events) => events.close())
  })
})
