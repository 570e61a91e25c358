import { startMockServer, VerificationError, type Expectation, type MockServer, type Tenant, type TenantState } from 'novu-mock'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { expectContract } from '../helpers/expect-contract.ts'
import { readState } from '../helpers/read-state.ts'
import { ADA, adaMessage } from '../helpers/well-known.ts'

const M1 = adaMessage(1)

let mock: MockServer
beforeAll(async () => {
  mock = await startMockServer()
})
afterAll(() => mock.close())

/** A tenant no other test touches, and its Authorization header for calls over HTTP. */
function fresh(): { tenant: Tenant; auth: { Authorization: string } } {
  const apiKey = `library-${crypto.randomUUID()}`
  return { tenant: mock.tenant(apiKey), auth: { Authorization: `ApiKey ${apiKey}` } }
}

const getSubscriber = (auth: { Authorization: string }, subscriberId = ADA) => fetch(`${mock.url}/v2/subscribers/${subscriberId}`, { headers: auth })

async function markAs(auth: { Authorization: string }, messageId: string[], markAs: string): Promise<void> {
  const res = await fetch(`${mock.url}/v1/subscribers/${ADA}/messages/mark-as`, {
    method: 'POST',
    headers: { ...auth, 'Content-Type': 'application/json' },
    body: JSON.stringify({ messageId, markAs }),
  })
  expect(res.status).toBe(201)
}

/** What a promise rejected with; fails the test when it resolved. */
async function rejection(promise: Promise<unknown>): Promise<Error> {
  const outcome = await promise.then(
    () => undefined,
    (error: unknown) => error,
  )
  expect(outcome, 'a rejection').toBeInstanceOf(Error)
  return outcome as Error
}

describe('startMockServer', () => {
  it('listens on a free port of 127.0.0.1, and close() frees it', async () => {
    const server = await startMockServer()
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    expect((await fetch(`${server.url}/__admin/health`)).status).toBe(200)
    await server.close()
    await expect(fetch(`${server.url}/__admin/health`)).rejects.toThrow()
  })

  it('takes the CLI flags camelCased: an API key list and the envelope', async () => {
    const server = await startMockServer({ apiKeys: ['only-key'], envelope: true })
    try {
      expect((await fetch(`${server.url}/v2/subscribers/${ADA}`, { headers: { Authorization: 'ApiKey other' } })).status).toBe(401)
      const res = await fetch(`${server.url}/v2/subscribers/${ADA}`, { headers: { Authorization: 'ApiKey only-key' } })
      expect(Object.keys((await res.json()) as object)).toEqual(['data'])
      expect((await rejection(server.tenant('other').state())).message).toBe('state: 401 API Key not found')
      expect((await server.tenant('only-key').state()).subscribers).toHaveLength(50)
    } finally {
      await server.close()
    }
  })
})

describe('Tenant, the control plane in process', () => {
  it('state() is what GET /__admin/state answers', async () => {
    const { tenant, auth } = fresh()
    await markAs(auth, [M1], 'read')
    const state = await tenant.state()
    expect(state.messages.find((m) => m._id === M1)?.read).toBe(true)
    expect(state).toEqual(await readState(mock.url, auth))
  })

  it('state() is a copy: changing it changes nothing stored', async () => {
    const { tenant } = fresh()
    const state = await tenant.state()
    state.subscribers[0]!.firstName = 'Changed'
    expect((await tenant.state()).subscribers[0]!.firstName).toBe('Ada')
  })

  it('setState() replaces the records, as the API then shows', async () => {
    const { tenant, auth } = fresh()
    const state = await tenant.state()
    state.subscribers[0]!.firstName = 'Augusta'
    await tenant.setState(state)
    expect(((await (await getSubscriber(auth)).json()) as { firstName: string }).firstName).toBe('Augusta')
  })

  it.each<[string, (state: TenantState) => void, string]>([
    ['a second primary email integration', (s) => void (s.integrations[1]!.primary = true), 'integrations.1'],
    ['a subscriber whose firstName is a number', (s) => void Object.assign(s.subscribers[3]!, { firstName: 42 }), 'subscribers.3.firstName'],
  ])('setState() with %s rejects naming the record, and changes nothing', async (_case, breakState, record) => {
    const { tenant } = fresh()
    const before = await tenant.state()
    const broken = structuredClone(before)
    breakState(broken)
    const error = await rejection(tenant.setState(broken))
    expect(error.message).toMatch(new RegExp(`^setState: 422 .*\\b${record.replace(/\./g, '\\.')}:`))
    expect(await tenant.state()).toEqual(before)
  })

  it('reset() puts the seed back', async () => {
    const { tenant, auth } = fresh()
    const seed = await tenant.state()
    await markAs(auth, [M1], 'read')
    expect(await tenant.state()).not.toEqual(seed)
    await tenant.reset()
    expect(await tenant.state()).toEqual(seed)
  })

  it('requests() lists the calls made with the key, filtered as the journal query is, and only those', async () => {
    const { tenant, auth } = fresh()
    await getSubscriber(auth)
    await getSubscriber(auth, 'nobody')
    await markAs(auth, [M1], 'seen')
    await tenant.state() // admin calls are never journaled
    const all = await tenant.requests()
    expect(all.map((call) => [call.operationId, call.status])).toEqual([
      ['getSubscriber', 200],
      ['getSubscriber', 404],
      ['markMessagesAs', 201],
    ])
    const res = await fetch(`${mock.url}/__admin/requests`, { headers: auth })
    await expectContract('listRequests', { status: res.status, body: await res.json() }, 'admin')
    expect((await tenant.requests({ operationId: 'getSubscriber', status: 404 })).map((call) => call.path)).toEqual(['/v2/subscribers/nobody'])
    expect((await tenant.requests({ limit: 1 })).map((call) => call.operationId)).toEqual(['markMessagesAs'])
    await tenant.clearRequests()
    expect(await tenant.requests()).toEqual([])
  })

  it('requests() rejects a filter the journal query refuses, naming it', async () => {
    const { tenant } = fresh()
    expect((await rejection(tenant.requests({ limit: 0 }))).message).toMatch(/^requests: 422 .*limit:/)
  })

  it('verify() resolves when the calls match', async () => {
    const { tenant, auth } = fresh()
    await markAs(auth, [M1], 'read')
    await tenant.verify({ operationId: 'markMessagesAs', count: 1, bodyMatches: { markAs: 'read' } })
    await tenant.verify({ operationId: 'markMessagesAs', atLeast: 1 })
  })

  it('verify() refuses an operationId the document does not have, naming the operations it has', async () => {
    const { tenant } = fresh()
    // @ts-expect-error -- the type is the union of the document's operationIds, so a typo does not compile either
    const error = await rejection(tenant.verify({ operationId: 'markMessageAs', count: 0 }))
    // Every name of every operation: the five's, Novu's operationIds, the SDK's methods (docs/behaviour.md §10).
    expect(error.message).toMatch(/^verify: 422 Validation Error \(operationId: must be equal to one of the allowed values: upsertSubscriberCredentials, getSubscriber, setPrimaryIntegration, listChannelConnections, markMessagesAs, /)
    expect(error.message).toContain(', EventsController_trigger, ')
    expect(error.message).toContain(', subscribers.create, ')
  })

  it('verify() counts only the calls answered with the given status or class', async () => {
    const { tenant, auth } = fresh()
    await markAs(auth, [M1], 'read')
    await tenant.verify({ operationId: 'markMessagesAs', status: '2xx', count: 1 })
    await tenant.verify({ operationId: 'markMessagesAs', status: 422, count: 0 })
  })

  it('verify() rejects with a VerificationError naming the operation, what was expected and what was seen', async () => {
    const { tenant, auth } = fresh()
    await markAs(auth, [M1], 'seen')
    await markAs(auth, [M1], 'read')
    const expectation: Expectation = { operationId: 'markMessagesAs', count: 1, bodyMatches: { markAs: 'unread' } }
    const error = await rejection(tenant.verify(expectation))
    expect(error).toBeInstanceOf(VerificationError)
    expect(error.message).toBe(
      [
        'Expected exactly 1 call(s) of markMessagesAs with a body containing {"markAs":"unread"}, matched 0',
        'Seen:',
        `  POST /v1/subscribers/${ADA}/messages/mark-as → 201 {"messageId":["${M1}"],"markAs":"seen"}`,
        `  POST /v1/subscribers/${ADA}/messages/mark-as → 201 {"messageId":["${M1}"],"markAs":"read"}`,
      ].join('\n'),
    )
    expect(error).toMatchObject({ name: 'VerificationError', expectation, matched: 0 })
    expect((error as VerificationError).seen).toHaveLength(2)
    const none = await rejection(tenant.verify({ operationId: 'getSubscriber', atLeast: 2 }))
    expect(none.message).toBe('Expected at least 2 call(s) of getSubscriber, matched 0\nSeen: no call of getSubscriber.')
  })

  it('snapshot() and restore() save and bring back the records', async () => {
    const { tenant, auth } = fresh()
    const saved = await tenant.snapshot('before-read')
    expect(saved).toMatchObject({ name: 'before-read', counts: { subscribers: 50, integrations: 9, channelConnections: 120, messages: 253 } })
    const before = await tenant.state()
    await markAs(auth, [M1], 'read')
    expect(await tenant.restore('before-read')).toEqual(saved)
    expect(await tenant.state()).toEqual(before)
    expect((await rejection(tenant.restore('never-saved'))).message).toBe('restore: 404 Snapshot never-saved not found')
  })

  it('fault() adds a rule the API then follows; removeFault() and clearFaults() take rules away', async () => {
    const { tenant, auth } = fresh()
    const rule = await tenant.fault({ preset: 'unavailable', match: { operationId: 'getSubscriber' } })
    expect(rule).toMatchObject({ id: expect.any(String), preset: 'unavailable', matched: 0, applied: 0 })
    expect((await getSubscriber(auth)).status).toBe(503)
    await tenant.removeFault(rule.id)
    expect((await getSubscriber(auth)).status).toBe(200)
    expect((await rejection(tenant.removeFault(rule.id))).message).toBe(`removeFault: 404 Fault rule ${rule.id} not found`)
    await tenant.fault({ respond: { status: 404 }, match: { operationId: 'getSubscriber' } })
    expect((await getSubscriber(auth)).status).toBe(404)
    await tenant.clearFaults()
    expect((await getSubscriber(auth)).status).toBe(200)
  })

  it('fault() rejects a status the operation does not document, naming it', async () => {
    const { tenant } = fresh()
    const error = await rejection(tenant.fault({ match: { operationId: 'getSubscriber' }, respond: { status: 418 } }))
    expect(error.message).toBe('fault: 422 Validation Error (respond.status: status 418 is not documented for getSubscriber)')
  })
})
