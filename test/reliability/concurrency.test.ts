import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { MockServer } from '../../src/app/create-mock-server.ts'
import type { TenantState } from '../../src/store/records.ts'
import { readState } from '../helpers/read-state.ts'
import { freshTenant, startTestServer } from '../helpers/start-test-server.ts'
import { ADA, adaMessage, GRACE, INTEGRATIONS } from '../helpers/well-known.ts'

let server: MockServer
beforeAll(async () => {
  server = await startTestServer()
})
afterAll(() => server.close())

const on = () => request(server.url)

describe('invariants under concurrency', () => {
  it('loses and duplicates nothing over 1,000 concurrent credential appends', { timeout: 60_000 }, async () => {
    const auth = freshTenant()
    // At most 99 distinct tokens per channel: a channel holds 100 at most (docs/behaviour.md §2.1).
    const sent = Array.from({ length: 1000 }, (_, i) => ({ provider: i % 3 === 0 ? 'slack' : 'fcm', token: `t-${i % 99}` }))
    const answers = await Promise.all(
      sent.map(({ provider, token }) =>
        on().patch(`/v1/subscribers/${GRACE}/credentials`).set(auth).send({ providerId: provider, credentials: { deviceTokens: [token] } }),
      ),
    )
    expect(answers.filter((a) => a.status !== 200)).toEqual([])
    const subscriber = (await readState(server.url, auth)).subscribers.find((s) => s.subscriberId === GRACE)!
    for (const provider of ['fcm', 'slack']) {
      const tokens = subscriber.channels!.find((c) => c.providerId === provider)!.credentials.deviceTokens!
      expect(new Set(tokens).size).toBe(tokens.length)
      expect(new Set(tokens)).toEqual(new Set(sent.filter((s) => s.provider === provider).map((s) => s.token)))
    }
  })

  it('leaves exactly one active primary per channel after 200 concurrent set-primary calls', async () => {
    const auth = freshTenant()
    const ids = [INTEGRATIONS.sendgrid, INTEGRATIONS.mailgun, INTEGRATIONS.ses, INTEGRATIONS.twilio, INTEGRATIONS.plivo]
    const answers = await Promise.all(Array.from({ length: 200 }, (_, i) => on().post(`/v1/integrations/${ids[i % ids.length]}/set-primary`).set(auth)))
    expect(answers.every((a) => a.status === 200)).toBe(true)
    const { integrations } = await readState(server.url, auth)
    for (const channel of ['email', 'sms']) {
      const primaries = integrations.filter((i) => i.channel === channel && i.primary)
      expect(primaries).toHaveLength(1)
      expect(primaries[0]!.active).toBe(true)
    }
  })

  it('keeps read ⇒ seen over concurrent mark-as calls', async () => {
    const auth = freshTenant()
    const states = ['read', 'seen', 'unread', 'unseen']
    const ids = Array.from({ length: 10 }, (_, i) => `64f2000000000000000000${String(i + 1).padStart(2, '0')}`)
    const answers = await Promise.all(
      Array.from({ length: 300 }, (_, i) =>
        on().post(`/v1/subscribers/${ADA}/messages/mark-as`).set(auth).send({ messageId: ids.slice(i % 5, (i % 5) + 4), markAs: states[i % 4] }),
      ),
    )
    expect(answers.every((a) => a.status === 201)).toBe(true)
    const { messages } = await readState(server.url, auth)
    expect(messages.filter((m) => m.read && !m.seen)).toEqual([])
  })

  it('changes the state once for 50 concurrent retries with one idempotency key', async () => {
    const auth = freshTenant()
    const retry = () =>
      on()
        .post(`/v1/subscribers/${ADA}/messages/mark-as`)
        .set({ ...auth, 'idempotency-key': 'same-key' })
        .send({ messageId: adaMessage(1), markAs: 'read' })
    const answers = await Promise.all(Array.from({ length: 50 }, retry))
    expect(answers.every((a) => a.status === 201 || a.status === 409)).toBe(true)
    const done = answers.filter((a) => a.status === 201)
    expect(done.length).toBeGreaterThan(0)
    // Marking read stamps the time: a second application would leave another lastReadDate.
    const stamped = new Set(done.map((a) => a.body[0].lastReadDate as string))
    expect(stamped.size).toBe(1)
    const stored = (await readState(server.url, auth)).messages.find((m) => m._id === adaMessage(1))!
    expect(stored.lastReadDate).toBe([...stamped][0])
    expect(done.filter((a) => a.headers['idempotency-replay'] !== 'true')).toHaveLength(1)
  })

  it('never repeats or skips a connection that existed when a walk began, while connections are added', { timeout: 60_000 }, async () => {
    const auth = freshTenant()
    const before = await readState(server.url, auth)
    const existing = new Set(before.channelConnections.map((c) => c.identifier))
    const seen: string[] = []
    let after: string | null = null
    let added = 0
    do {
      const res: request.Response = await on().get(`/v1/channel-connections?limit=7${after ? `&after=${after}` : ''}`).set(auth)
      expect(res.status).toBe(200)
      seen.push(...(res.body.data as { identifier: string }[]).map((c) => c.identifier))
      after = res.body.next
      const state: TenantState = await readState(server.url, auth)
      const fresh = { ...state.channelConnections[0]!, _id: `66aa${String(added).padStart(20, '0')}`, identifier: `added-${added++}`, createdAt: new Date(Date.UTC(2023, 0, 1 + added * 20)).toISOString() }
      expect((await on().put('/__admin/state').set(auth).send({ ...state, channelConnections: [...state.channelConnections, fresh] })).status).toBe(200)
    } while (after !== null)
    const visitedExisting = seen.filter((id) => existing.has(id))
    expect(visitedExisting.length).toBe(existing.size)
    expect(new Set(visitedExisting).size).toBe(existing.size)
    expect(added).toBeGreaterThan(10)
  })
})
