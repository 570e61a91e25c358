// novu-mock/msw (issue 44): the mock in process, through msw, with the official SDK unchanged.
import { Novu } from '@novu/api'
import { setupServer } from 'msw/node'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createNovuMock, type NovuMock } from '../../src/msw/index.ts'
import { expectContract, expectErrorDto } from '../helpers/expect-contract.ts'

const ADA = 'demo-subscriber-1'
const M01 = '64f200000000000000000001' // unseen
const OTHER_BASE = 'http://novu.internal:3000/api'

describe('createNovuMock: the mock as msw handlers', () => {
  let novu: NovuMock
  let other: NovuMock
  const server = setupServer()
  beforeAll(async () => {
    novu = await createNovuMock({ seed: 7 })
    other = await createNovuMock({ seed: 7, baseUrl: OTHER_BASE })
    server.use(...novu.handlers, ...other.handlers)
    server.listen({ onUnhandledRequest: 'error' })
  })
  afterAll(async () => {
    server.close()
    await Promise.all([novu.close(), other.close()])
  })

  /** A client of the SDK at its default server URL, on a key of its own (so a fresh tenant). */
  const sdk = (key = `msw-${crypto.randomUUID()}`) => ({ key, client: new Novu({ secretKey: key, retryConfig: { strategy: 'none' } }) })
  const call = (path: string, key: string, init: RequestInit = {}, base = 'https://api.novu.co') =>
    fetch(`${base}${path}`, { ...init, headers: { Authorization: `ApiKey ${key}`, ...init.headers } })

  // The recipe of docs/recipes.md quotes this test.
  it('answers the SDK at its default server URL, and the tenant sees the call and its change', async () => {
    const { key, client } = sdk()
    const { result } = await client.subscribers.messages.markAllAs({ messageId: M01, markAs: 'read' }, ADA)
    expect(result.map((message) => [message.id, message.read])).toEqual([[M01, true]])
    await novu.tenant(key).verify({ operationId: 'markMessagesAs', count: 1 })
    const state = await novu.tenant(key).state()
    expect(state.messages.find((message) => message._id === M01)).toMatchObject({ read: true, seen: true })
  })

  it('answers with the documented body and the headers a client reads', async () => {
    const response = await call(`/v2/subscribers/${ADA}`, `msw-${crypto.randomUUID()}`)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8')
    expect(response.headers.get('ratelimit-limit')).toBe('100')
    await expectContract('getSubscriber', { status: 200, body: await response.json() })
  })

  it('answers an unknown route with the service’s 404, so nothing reaches the live service', async () => {
    const response = await call('/v9/nothing?x=1', 'k', { method: 'POST' })
    expect(response.status).toBe(404)
    const body = (await response.json()) as { message: string }
    expect(body.message).toBe('Cannot POST /v9/nothing?x=1')
    await expectErrorDto(body)
  })

  // A malformed escape never reaches the mock here: msw's own matching throws on it first.
  it('routes as the node server: a HEAD as its GET, any case and a trailing slash', async () => {
    const key = `msw-${crypto.randomUUID()}`
    const head = await call(`/v2/subscribers/${ADA}`, key, { method: 'HEAD' })
    expect([head.status, await head.text()]).toEqual([200, ''])
    const lenient = await call(`/V2/Subscribers/${ADA}/`, key)
    expect(lenient.status).toBe(200)
    await expectContract('getSubscriber', { status: 200, body: await lenient.json() })
  })

  it('answers /__admin with a 404 that names tenant(apiKey), the control plane in process', async () => {
    const response = await call('/__admin/state', 'k')
    expect(response.status).toBe(404)
    expect(((await response.json()) as { message: string }).message).toContain('tenant(apiKey)')
  })

  it('replays a keyed write, as over HTTP', async () => {
    const key = `msw-${crypto.randomUUID()}`
    const send = () =>
      call(`/v1/subscribers/${ADA}/messages/mark-as`, key, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'Idempotency-Key': 'once' },
        body: JSON.stringify({ messageId: M01, markAs: 'seen' }),
      })
    const first = await send()
    const again = await send()
    expect([first.status, again.status]).toEqual([201, 201])
    expect(again.headers.get('idempotency-replay')).toBe('true')
    expect(await again.json()).toEqual(await first.json())
    expect(await novu.tenant(key).requests({ operationId: 'markMessagesAs' })).toHaveLength(2)
  })

  it('turns a fault that drops the connection into msw’s network error', async () => {
    const { key, client } = sdk()
    await novu.tenant(key).fault({ match: { operationId: 'getSubscriber' }, drop: true })
    await expect(call(`/v2/subscribers/${ADA}`, key)).rejects.toThrow(TypeError)
    await expect(client.subscribers.retrieve(ADA)).rejects.toThrow()
  })

  it('waits for Prefer: delay before answering', async () => {
    const started = performance.now()
    const response = await call(`/v2/subscribers/${ADA}`, 'k', { headers: { Prefer: 'delay=200' } })
    expect(response.status).toBe(200)
    expect(response.headers.get('preference-applied')).toBe('delay=200')
    // A lower bound only: a busy machine may take longer, never less.
    expect(performance.now() - started).toBeGreaterThanOrEqual(195)
  })

  it('keeps two mocks on two base URLs apart: a write to one leaves the other’s tenant at its seed', async () => {
    const key = `msw-${crypto.randomUUID()}`
    const body = JSON.stringify({ messageId: M01, markAs: 'read' })
    const written = await call(`/v1/subscribers/${ADA}/messages/mark-as`, key, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body }, OTHER_BASE)
    expect(written.status).toBe(201)
    expect((await other.tenant(key).state()).messages.find((m) => m._id === M01)?.read).toBe(true)
    expect((await novu.tenant(key).state()).messages.find((m) => m._id === M01)?.read).toBe(false)
    expect(await novu.tenant(key).requests()).toEqual([])
  })

  it('reads a form as the live service does, and any other type as an empty body the journal notes', async () => {
    const key = `msw-${crypto.randomUUID()}`
    const send = (contentType: string, body: string) => call(`/v1/subscribers/${ADA}/messages/mark-as`, key, { method: 'POST', headers: { 'Content-Type': contentType }, body })
    const form = await send('application/x-www-form-urlencoded', `messageId[]=${M01}&markAs=read`)
    expect(form.status).toBe(201)
    await expectContract('markMessagesAs', { status: 201, body: await form.json() })
    const text = await send('text/plain', JSON.stringify({ messageId: M01, markAs: 'seen' }))
    expect(text.status).toBe(422)
    const [formEntry, textEntry] = await novu.tenant(key).requests()
    expect(formEntry).toMatchObject({ status: 201, requestBody: { messageId: [M01], markAs: 'read' } })
    expect(formEntry).not.toHaveProperty('note')
    expect(textEntry).toMatchObject({ status: 422, note: 'body ignored for its content type (text/plain)' })
    expect(textEntry).not.toHaveProperty('requestBody')
  })

  it('stamps a call’s record, error and journal entry with its tenant’s time', async () => {
    const key = `msw-${crypto.randomUUID()}`
    const T0 = '2024-06-01T12:00:00.000Z'
    await novu.tenant(key).clock.set(T0)
    const marked = await call(`/v1/subscribers/${ADA}/messages/mark-as`, key, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ messageId: M01, markAs: 'read' }) })
    expect(marked.status).toBe(201)
    expect(((await marked.json()) as { lastReadDate: string }[])[0]!.lastReadDate).toBe(T0)
    const missing = await call('/v2/subscribers/nobody-here', key)
    expect(missing.status).toBe(404)
    expect(((await missing.json()) as { timestamp: string }).timestamp).toBe(T0)
    expect((await novu.tenant(key).requests()).map((entry) => entry.time)).toEqual([T0, T0])
  })

  it('ends each call, so a bounded mock releases an idle tenant for a new key', async () => {
    const bounded = await createNovuMock({ maxTenants: 1, baseUrl: 'http://bounded.test' })
    server.use(...bounded.handlers)
    try {
      for (let i = 0; i < 3; i++) expect((await call(`/v2/subscribers/${ADA}`, `msw-${crypto.randomUUID()}`, {}, 'http://bounded.test')).status).toBe(200)
    } finally {
      server.resetHandlers(...novu.handlers, ...other.handlers)
      await bounded.close()
    }
  })

  it('refuses an option only a server has something to do with', async () => {
    await expect(createNovuMock({ proxy: 'https://api.novu.co' })).rejects.toThrow(/createNovuMock: option "proxy"/)
    await expect(createNovuMock({ baseUrl: 'api.novu.co' })).rejects.toThrow(/baseUrl/)
  })
})
