import { describe, expect, it } from 'vitest'
import { collected, JOURNAL_KINDS, journalsOf, subscribed, type TestJournal } from '../../test/helpers/journals.ts'
import { BODY_LIMIT } from './kept-entry.ts'
import type { JournalCall, JournalEntry } from './journal-port.ts'

const KEY = 'idem-7f3a'

const call = (requestBody: unknown, responseBody: unknown): JournalCall => ({
  time: '2026-11-24T10:00:00.000Z',
  operationId: 'markMessagesAs',
  method: 'POST',
  path: '/x',
  url: '/x',
  status: 201,
  durationMs: 1,
  requestBody,
  responseBody,
})

describe.each(JOURNAL_KINDS)('the journal %s', (kind) => {
  const journalOf = journalsOf(kind)

  /** The entries as listed and as streamed, which must agree. */
  async function shownEntries(record: (journal: TestJournal) => void): Promise<JournalEntry[]> {
    const journal = await journalOf(10)
    const streamed = collected((event) => JSON.parse(event.json) as JournalEntry)
    await subscribed(journal, 'a', streamed.listener)
    record(journal)
    const listed = await journal.list('a')
    expect(await streamed.until(listed.length)).toEqual(listed)
    return listed
  }

  describe('the idempotency key in bodies', () => {
    it('is shown as [redacted] wherever a string holds it, in the request and in the response as sent', async () => {
      const response = { id: 'm1', note: `retried with ${KEY}` }
      const [entry] = await shownEntries((journal) =>
        journal.record('a', call({ messageId: [KEY, 'm2'] }, response), { secret: KEY, responseText: JSON.stringify(response) }),
      )
      expect(entry!.requestBody).toEqual({ messageId: ['[redacted]', 'm2'] })
      expect(entry!.responseBody).toEqual({ id: 'm1', note: 'retried with [redacted]' })
    })

    it('is redacted in a body cut at the limit, even where the cut falls inside it', async () => {
      const text = `${'x'.repeat(BODY_LIMIT - 20)}${KEY}${'y'.repeat(40)}`
      const [entry] = await shownEntries((journal) => journal.record('a', call({ text }, { text }), { secret: KEY }))
      expect(entry!.truncated).toBe(true)
      for (const body of [entry!.requestBody, entry!.responseBody]) {
        expect(body).toEqual(expect.stringContaining('[redac'))
        expect(body).not.toEqual(expect.stringContaining(KEY.slice(0, 4)))
      }
    })

    it('leaves bodies without it as they were, and an empty key redacts nothing', async () => {
      const [plain, empty] = await shownEntries((journal) => {
        journal.record('a', call({ a: 'bc' }, { c: 'de' }), { secret: KEY })
        journal.record('a', call({ a: 'bc' }, { c: 'de' }), { secret: '' })
      })
      for (const entry of [plain, empty]) expect(entry).toMatchObject({ requestBody: { a: 'bc' }, responseBody: { c: 'de' } })
    })
  })

  describe('the request headers', () => {
    it('are shown by lower-cased name, repeated ones joined, any name kept as data, secrets redacted, and only with bodies', async () => {
      const journal = await journalOf(10)
      const summaries = collected((event) => event.json)
      // Another tenant than shownEntries' (on Redis, two journals share their tenants).
      await subscribed(journal, 'b', summaries.listener, { bodies: false })
      const rawHeaders = ['X-A', '1', 'x-a', '2', '__proto__', 'p', 'Authorization', 'ApiKey k', 'Cookie', 'c=1']
      journal.record('b', { ...call(undefined, {}), rawHeaders })
      const [entry] = await shownEntries((streamed) => streamed.record('a', { ...call(undefined, {}), rawHeaders }))
      expect(JSON.parse(JSON.stringify(entry!.headers))).toEqual({ 'x-a': '1, 2', ['__proto__']: 'p', authorization: '[redacted]', cookie: '[redacted]' })
      expect(Object.getOwnPropertyDescriptor(entry!.headers, '__proto__')?.value).toBe('p')
      expect(JSON.parse((await summaries.until(1))[0]!)).not.toHaveProperty('headers')
      expect((await journal.list('b'))[0]!.headers).toEqual(entry!.headers)
    })
  })
})
