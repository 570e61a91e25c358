import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { MockServer } from '../../src/app/create-mock-server.ts'
import { startMockServer } from '../../src/index.ts'
import { openEvents } from '../helpers/event-stream.ts'
import { expectContract } from '../helpers/expect-contract.ts'
import { rawRequest } from '../helpers/raw-request.ts'
import { startTestServer } from '../helpers/start-test-server.ts'

const MARK_AS = '/v1/subscribers/demo-subscriber-1/messages/mark-as'
/** `levels` arrays, one inside the other, around an ObjectId. */
const nested = (levels: number) => `${'['.repeat(levels)}"64f200000000000000000001"${']'.repeat(levels)}`
/** A mark-as body whose deepest array is `depth` levels down, the body object counting one. */
const markAsBody = (depth: number) => `{"messageId":${nested(depth - 1)},"markAs":"read"}`

describe('a JSON body nested deeper than 64 levels (docs/behaviour.md §1.2)', () => {
  let mock: MockServer
  beforeAll(async () => {
    mock = await startTestServer()
  })
  afterAll(() => mock.close())

  const post = (path: string, body: string, headers: Record<string, string> = {}, method = 'POST') =>
    rawRequest(`${mock.url}${path}`, { method, body, headers: { Authorization: 'ApiKey depth-key', 'Content-Type': 'application/json', ...headers } })

  it.each([65, 5_000, 50_000])('is a 400 naming the limit at %i levels, journaled as nothing', async (depth) => {
    const key = `depth-${depth}`
    const answer = await post(MARK_AS, markAsBody(depth), { Authorization: `ApiKey ${key}` })
    expect(answer.status).toBe(400)
    await expectContract('markMessagesAs', answer)
    expect((answer.body as { message: string }).message).toMatch(/deeper than 64 levels/)
    const journal = await rawRequest(`${mock.url}/__admin/requests`, { headers: { Authorization: `ApiKey ${key}` } })
    const entries = (journal.body as { requests: { status: number; requestBody?: unknown }[] }).requests
    expect(entries.map((entry) => [entry.status, entry.requestBody])).toEqual([[400, undefined]])
  })

  it('counts no bracket inside a string, and reads 64 levels as the document reads them', async () => {
    const inString = await post(MARK_AS, `{"messageId":"${'['.repeat(10_000)}","markAs":"read"}`)
    expect(inString.status).toBe(422)
    const deepest = await post(MARK_AS, markAsBody(64), { 'idempotency-key': 'depth-64' })
    expect(deepest.status).toBe(422)
    await expectContract('markMessagesAs', deepest)
    const again = await post(MARK_AS, markAsBody(64), { 'idempotency-key': 'depth-64' })
    expect([again.status, again.headers['idempotency-replay']]).toEqual([422, 'true'])
  })

  it('is refused on the control plane too, with nothing changed', async () => {
    const payload = JSON.parse(`{"a":${nested(70)}}`) as unknown
    const answer = await post('/__admin/state', `{"subscribers":[],"integrations":[],"channelConnections":[],"messages":[{"payload":${JSON.stringify(payload)}}]}`, {}, 'PUT')
    expect(answer.status).toBe(400)
    await expectContract('putState', answer, 'admin')
    const state = await rawRequest(`${mock.url}/__admin/state`, { headers: { Authorization: 'ApiKey depth-key' } })
    expect((state.body as { subscribers: unknown[] }).subscribers.length).toBeGreaterThan(0)
  })

  it('leaves the journal, its stream and the log whole for the deepest body allowed', async () => {
    const auth = { Authorization: 'ApiKey depth-stream' }
    const events = await openEvents(`${mock.url}/__admin/events`, auth)
    try {
      expect((await events.next())?.event).toBe('ready')
      const answer = await post(MARK_AS, markAsBody(64), auth)
      expect(answer.status).toBe(422)
      const event = await events.next()
      expect(JSON.parse(event!.data)).toMatchObject({ status: 422, requestBody: { markAs: 'read' } })
      const journal = await rawRequest(`${mock.url}/__admin/requests`, { headers: auth })
      expect(journal.status).toBe(200)
    } finally {
      events.close()
    }
  })
})

describe('the library', () => {
  it('refuses a state nested too deep, as the route does', async () => {
    const mock = await startMockServer()
    try {
      const tenant = mock.tenant('depth-library')
      const state = await tenant.state()
      const deep = JSON.parse(`{"v":${nested(5_000)}}`) as Record<string, unknown>
      state.messages[0]!.payload = deep
      await expect(tenant.setState(state)).rejects.toThrow(/deeper than 64 levels/)
      expect((await tenant.state()).messages[0]!.payload).not.toEqual(deep)
    } finally {
      await mock.close()
    }
  })
})
