import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { MockServer } from '../../src/app/create-mock-server.ts'
import type { StoredMessage } from '../../src/store/records.ts'
import { expectContract } from '../helpers/expect-contract.ts'
import { readState } from '../helpers/read-state.ts'
import { freshTenant, startTestServer } from '../helpers/start-test-server.ts'
import { ADA, adaMessage, GRACE, graceMessage } from '../helpers/well-known.ts'

type Auth = ReturnType<typeof freshTenant>
type MarkAs = 'read' | 'seen' | 'unread' | 'unseen'

/** demo-subscriber-1's inbox: 01–05 unseen and unread, 06–08 seen and unread, 09–10 read. */
const ADA_MESSAGES = Array.from({ length: 10 }, (_, i) => adaMessage(i + 1))
const GRACES = graceMessage(1)
const UNKNOWN = '64f2000000000000000000ff'
const [M1, M2, M3] = [ADA_MESSAGES[0]!, ADA_MESSAGES[1]!, ADA_MESSAGES[2]!]

let server: MockServer
beforeAll(async () => {
  server = await startTestServer()
})
afterAll(() => server.close())

const markAs = (auth: Auth, body: unknown, subscriberId = ADA) =>
  request(server.url).post(`/v1/subscribers/${subscriberId}/messages/mark-as`).set(auth).send(body as object)

async function messagesOf(auth: Auth): Promise<Map<string, StoredMessage>> {
  return new Map((await readState(server.url, auth)).messages.map((m) => [m._id, m]))
}

const idsOf = (res: request.Response) => (res.body as { _id: string }[]).map((m) => m._id)

function expectNow(date: string | undefined, from: number, to: number, what: string) {
  expect(date, what).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/)
  const at = Date.parse(date!)
  expect(at, what).toBeGreaterThanOrEqual(from)
  expect(at, what).toBeLessThanOrEqual(to)
}

/** §2.5.3: the flags each markAs sets, and which dates become now (the others stay as they were). */
const EFFECTS: Record<MarkAs, { flags: Partial<Pick<StoredMessage, 'read' | 'seen'>>; dates: ('lastReadDate' | 'lastSeenDate')[] }> = {
  read: { flags: { read: true, seen: true }, dates: ['lastReadDate', 'lastSeenDate'] },
  unread: { flags: { read: false, seen: true }, dates: ['lastReadDate', 'lastSeenDate'] },
  seen: { flags: { seen: true }, dates: ['lastSeenDate'] },
  unseen: { flags: { seen: false, read: false }, dates: ['lastSeenDate'] },
}

describe('POST /v1/subscribers/{subscriberId}/messages/mark-as', () => {
  it(`seeds the well-known inbox of ${ADA} as documented`, async () => {
    const messages = await messagesOf(freshTenant())
    const flags = ADA_MESSAGES.map((id) => [messages.get(id)!.seen, messages.get(id)!.read])
    expect(flags).toEqual([...Array(5).fill([false, false]), ...Array(3).fill([true, false]), ...Array(2).fill([true, true])])
  })

  it.each(Object.keys(EFFECTS) as MarkAs[])('markAs %s applies §2.5.3 to all ten messages', async (mark) => {
    const auth = freshTenant()
    const before = await messagesOf(auth)
    const from = Date.now()
    const res = await markAs(auth, { messageId: ADA_MESSAGES, markAs: mark })
    const to = Date.now()
    expect(res.status).toBe(201)
    await expectContract('markMessagesAs', res)
    expect(idsOf(res)).toEqual(ADA_MESSAGES)
    const after = await messagesOf(auth)
    const { flags, dates } = EFFECTS[mark]
    for (const [index, id] of ADA_MESSAGES.entries()) {
      const old = before.get(id)!
      const want: StoredMessage = { ...old, ...flags }
      for (const field of ['lastReadDate', 'lastSeenDate'] as const) {
        if (dates.includes(field)) expectNow(after.get(id)![field], from, to, `${id} ${field}`)
        if (dates.includes(field)) want[field] = after.get(id)![field]
      }
      expect(after.get(id), id).toEqual(want)
      const returned = (res.body as StoredMessage[])[index]!
      expect(returned).toMatchObject({ _id: id, read: want.read, seen: want.seen })
      expect(returned.lastSeenDate).toBe(want.lastSeenDate)
      expect(returned.lastReadDate).toBe(want.lastReadDate)
    }
  })

  it('keeps read ⇒ seen after every call of a mixed sequence', async () => {
    const auth = freshTenant()
    const marks: MarkAs[] = ['read', 'unseen', 'seen', 'read', 'unread', 'unseen', 'read', 'seen', 'unseen', 'unread']
    for (const [step, mark] of marks.entries()) {
      const ids = ADA_MESSAGES.filter((_, i) => (i + step) % 3 !== 0)
      const res = await markAs(auth, { messageId: ids, markAs: mark })
      expect(res.status).toBe(201)
      await expectContract('markMessagesAs', res)
      for (const m of (await messagesOf(auth)).values()) {
        expect(m.seen || !m.read, `${m._id} after step ${step} (${mark})`).toBe(true)
      }
    }
  })

  it.each([
    ['an array', [M1, M2], [M1, M2]],
    ['a single string', M3, [M3]],
    ['ids named twice, kept in first order', [M3, M1, M3], [M3, M1]],
    ['another subscriber’s and unknown ids among them', [M2, GRACES, UNKNOWN, M1], [M2, M1]],
    ['only ids of others', [GRACES, UNKNOWN], []],
  ])('accepts messageId as %s', async (_kind, messageId, expected) => {
    const auth = freshTenant()
    const before = await messagesOf(auth)
    const res = await markAs(auth, { messageId, markAs: 'read' })
    expect(res.status).toBe(201)
    await expectContract('markMessagesAs', res)
    expect(idsOf(res)).toEqual(expected)
    const after = await messagesOf(auth)
    for (const [id, message] of after) {
      if (expected.includes(id)) expect(message, id).toMatchObject({ read: true, seen: true })
      else expect(message, id).toEqual(before.get(id))
    }
    expect(after.has(UNKNOWN)).toBe(false)
  })

  const OBJECT_ID = 'messageId must be a valid MongoDB ObjectId or an array of valid MongoDB ObjectIds'
  const MISSING = (field: string) => `${field} should not be null or undefined`
  const MARK_AS = 'markAs must be one of the following values: read, seen, unread, unseen'
  it.each([
    ['messageId is missing', { markAs: 'read' }, [MISSING('messageId'), OBJECT_ID]],
    ['messageId is ""', { messageId: '', markAs: 'read' }, [OBJECT_ID]],
    ['messageId is a comma list', { messageId: `${M1},${M2}`, markAs: 'read' }, [OBJECT_ID]],
    ['messageId is not an ObjectId', { messageId: 'abc', markAs: 'read' }, [OBJECT_ID]],
    ['messageId is []', { messageId: [], markAs: 'read' }, [OBJECT_ID]],
    ['messageId is [""]', { messageId: [''], markAs: 'read' }, [OBJECT_ID]],
    ['messageId is a number', { messageId: 5, markAs: 'read' }, [OBJECT_ID]],
    ['messageId holds a number', { messageId: [M1, 5], markAs: 'read' }, [OBJECT_ID]],
    ['markAs is invalid', { messageId: M1, markAs: 'archived' }, [MARK_AS]],
    ['markAs is ""', { messageId: M1, markAs: '' }, [MARK_AS]],
    ['markAs is missing', { messageId: M1 }, [MISSING('markAs')]],
    ['both are wrong', { messageId: 5, markAs: 'READ' }, [OBJECT_ID, MARK_AS]],
    ['the body is an array', [M1], [MISSING('messageId'), OBJECT_ID, MISSING('markAs')]],
  ])('answers 422 when %s, one message per property and rule under general', async (_case, body, messages) => {
    const auth = freshTenant()
    const before = await messagesOf(auth)
    const res = await markAs(auth, body)
    expect(res.status).toBe(422)
    await expectContract('markMessagesAs', res)
    expect(res.body.message).toBe('Validation Error')
    expect(res.body.errors).toEqual({ general: { messages, value: 'No Value Recorded' } })
    expect(await messagesOf(auth)).toEqual(before)
  })

  it('answers without contextKeys, template and subscriber, and with _feedId null when the message has none', async () => {
    const auth = freshTenant()
    const stored = await messagesOf(auth)
    const withTemplate = [...stored.values()].find((m) => m.template !== undefined && m.contextKeys !== undefined)
    expect(withTemplate, 'a seeded message with a template and context keys').toBeDefined()
    const ids = [M1, withTemplate!._id]
    const subscriber = (await readState(server.url, auth)).subscribers.find((s) => s._id === withTemplate!._subscriberId)!
    const res = await markAs(auth, { messageId: ids, markAs: 'seen' }, subscriber.subscriberId)
    expect(res.status).toBe(201)
    await expectContract('markMessagesAs', res)
    for (const message of res.body as Record<string, unknown>[]) {
      expect(message).not.toHaveProperty('contextKeys')
      expect(message).not.toHaveProperty('template')
      expect(message).not.toHaveProperty('subscriber')
      expect(message._feedId).toBe(stored.get(message._id as string)!._feedId ?? null)
    }
    // Kept in the store: only the answer leaves them out.
    expect((await messagesOf(auth)).get(withTemplate!._id)!.template).toEqual(withTemplate!.template)
  })

  it('answers 404 for an unknown subscriber', async () => {
    const res = await markAs(freshTenant(), { messageId: M1, markAs: 'read' }, 'nobody-here')
    expect(res.status).toBe(404)
    await expectContract('markMessagesAs', res)
    expect(res.body.message).toBe('Subscriber nobody-here not found')
  })

  it(`marks ${GRACE}’s messages only for ${GRACE}`, async () => {
    const auth = freshTenant()
    const res = await markAs(auth, { messageId: [GRACES, M1], markAs: 'seen' }, GRACE)
    expect(res.status).toBe(201)
    await expectContract('markMessagesAs', res)
    expect(idsOf(res)).toEqual([GRACES])
    const after = await messagesOf(auth)
    expect(after.get(GRACES)).toMatchObject({ seen: true, read: false })
    expect(after.get(M1)).toMatchObject({ seen: false, read: false })
  })
})
