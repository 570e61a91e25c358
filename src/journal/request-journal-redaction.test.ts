import { describe, expect, it } from 'vitest'
import { BODY_LIMIT, RequestJournal, type JournalCall, type JournalEntry } from './request-journal.ts'

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

/** The entry as listed and as streamed, which must agree. */
function shownEntries(record: (journal: RequestJournal) => void): JournalEntry[] {
  const journal = new RequestJournal(10)
  const streamed: JournalEntry[] = []
  journal.subscribe('a', (event) => streamed.push(JSON.parse(event.json) as JournalEntry))
  record(journal)
  const listed = journal.list('a')
  expect(streamed).toEqual(listed)
  return listed
}

describe('RequestJournal: the idempotency key in bodies', () => {
  it('is shown as [redacted] wherever a string holds it, in the request and in the response as sent', () => {
    const response = { id: 'm1', note: `retried with ${KEY}` }
    const [entry] = shownEntries((journal) =>
      journal.record('a', call({ messageId: [KEY, 'm2'] }, response), { secret: KEY, responseText: JSON.stringify(response) }),
    )
    expect(entry!.requestBody).toEqual({ messageId: ['[redacted]', 'm2'] })
    expect(entry!.responseBody).toEqual({ id: 'm1', note: 'retried with [redacted]' })
  })

  it('is redacted in a body cut at the limit, even where the cut falls inside it', () => {
    const text = `${'x'.repeat(BODY_LIMIT - 20)}${KEY}${'y'.repeat(40)}`
    const [entry] = shownEntries((journal) => journal.record('a', call({ text }, { text }), { secret: KEY }))
    expect(entry!.truncated).toBe(true)
    for (const body of [entry!.requestBody, entry!.responseBody]) {
      expect(body).toEqual(expect.stringContaining('[redac'))
      expect(body).not.toEqual(expect.stringContaining(KEY.slice(0, 4)))
    }
  })

  it('leaves bodies without it as they were, and an empty key redacts nothing', () => {
    const [plain, empty] = shownEntries((journal) => {
      journal.record('a', call({ a: 'bc' }, { c: 'de' }), { secret: KEY })
      journal.record('a', call({ a: 'bc' }, { c: 'de' }), { secret: '' })
    })
    for (const entry of [plain, empty]) expect(entry).toMatchObject({ requestBody: { a: 'bc' }, responseBody: { c: 'de' } })
  })
})

describe('RequestJournal: the request headers', () => {
  it('are shown by lower-cased name, repeated ones joined, any name kept as data, secrets redacted, and only with bodies', () => {
    const journal = new RequestJournal(10)
    const summaries: string[] = []
    journal.subscribe('a', (event) => summaries.push(event.json), { bodies: false })
    const rawHeaders = ['X-A', '1', 'x-a', '2', '__proto__', 'p', 'Authorization', 'ApiKey k', 'Cookie', 'c=1']
    journal.record('a', { ...call(undefined, {}), rawHeaders })
    const [entry] = shownEntries((streamed) => streamed.record('a', { ...call(undefined, {}), rawHeaders }))
    expect(JSON.parse(JSON.stringify(entry!.headers))).toEqual({ 'x-a': '1, 2', ['__proto__']: 'p', authorization: '[redacted]', cookie: '[redacted]' })
    expect(Object.getOwnPropertyDescriptor(entry!.headers, '__proto__')?.value).toBe('p')
    expect(JSON.parse(summaries[0]!)).not.toHaveProperty('headers')
    expect(journal.list('a')[0]!.headers).toEqual(entry!.headers)
  })
})
