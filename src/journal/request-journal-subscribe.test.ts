import { describe, expect, it } from 'vitest'
import { BODY_LIMIT, RequestJournal, type JournalCall, type JournalEntry } from './request-journal.ts'

const call = (operationId: string, requestBody?: unknown): JournalCall => ({
  time: '2026-11-23T10:00:00.000Z',
  operationId,
  method: 'POST',
  path: '/x',
  url: '/x',
  status: 201,
  durationMs: 1,
  ...(requestBody === undefined ? {} : { requestBody }),
})

describe('RequestJournal.subscribe', () => {
  it('hands over each entry of its tenant as kept, secrets redacted, until unsubscribed', () => {
    const journal = new RequestJournal(10)
    const seen: JournalEntry[] = []
    const stop = journal.subscribe('a', (event) => seen.push(JSON.parse(event.json) as JournalEntry))!
    journal.record('a', call('first', { key: 'idem-1' }), { secret: 'idem-1' })
    journal.record('b', call('other tenant'))
    stop()
    journal.record('a', call('after'))
    expect(seen).toEqual(journal.list('a').slice(0, 1))
    expect(seen[0]!.requestBody).toEqual({ key: '[redacted]' })
    expect(journal.subscribers).toBe(0)
  })

  it('is bounded over all tenants, and an unsubscribe (even repeated) frees exactly one place', () => {
    const journal = new RequestJournal(10, 2)
    const stopA = journal.subscribe('a', () => {})!
    expect(journal.subscribe('b', () => {})).toBeDefined()
    expect(journal.subscribe('c', () => {})).toBeUndefined()
    stopA()
    stopA()
    expect(journal.subscribers).toBe(1)
    expect(journal.subscribe('c', () => {})).toBeDefined()
    expect(journal.subscribe('d', () => {})).toBeUndefined()
  })

  it('hands a listener that asked for no bodies the entry without them, the others the whole entry', () => {
    const journal = new RequestJournal(10)
    const whole: JournalEntry[] = []
    const summary: JournalEntry[] = []
    journal.subscribe('a', (event) => whole.push(JSON.parse(event.json) as JournalEntry))
    journal.subscribe('a', (event) => summary.push(JSON.parse(event.json) as JournalEntry), { bodies: false })
    journal.record('a', { ...call('one', { text: 'x'.repeat(BODY_LIMIT + 1) }), responseBody: { ok: true } })
    const [entry] = journal.list('a')
    expect(whole).toEqual([entry])
    expect(entry).toMatchObject({ truncated: true, responseBody: { ok: true } })
    const { requestBody, responseBody, truncated, ...withoutBodies } = entry!
    expect(summary).toEqual([withoutBodies])
  })

  it('streams the entry the admin API shows, whatever its path, query and duration hold', () => {
    const journal = new RequestJournal(10)
    const summary: unknown[] = []
    journal.subscribe('a', (event) => summary.push(JSON.parse(event.json)), { bodies: false })
    const path = '/v2/subscribers/a"b\\c\u2028d\u0001'
    journal.record('a', { ...call('getSubscriber'), method: 'GET', path, url: `${path}?limit=10&name=%22x%22&name=y`, status: 200, durationMs: 0.123456789 })
    journal.record('a', { ...call('getSubscriber'), path, url: path, durationMs: 12 })
    expect(summary).toEqual(journal.list('a'))
    expect(summary[0]).toMatchObject({ path, query: { limit: '10', name: ['"x"', 'y'] }, durationMs: 0.123456789 })
  })

  it('keeps recording when a listener throws, and still notifies the others', () => {
    const journal = new RequestJournal(10)
    const seen: string[] = []
    journal.subscribe('a', () => {
      throw new Error('broken stream')
    })
    journal.subscribe('a', (event) => seen.push((JSON.parse(event.json) as JournalEntry).operationId))
    expect(() => journal.record('a', call('one'))).not.toThrow()
    expect(seen).toEqual(['one'])
    expect(journal.list('a')).toHaveLength(1)
  })
})
