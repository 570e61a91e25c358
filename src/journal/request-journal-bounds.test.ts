import { describe, expect, it } from 'vitest'
import { BODY_LIMIT, RequestJournal, type JournalCall } from './request-journal.ts'

const call = (responseBody: unknown, url = '/v2/subscribers/s?limit=10&tag=a&tag=b'): JournalCall => ({
  time: '2026-11-23T10:00:00.000Z',
  operationId: 'getSubscriber',
  method: 'GET',
  path: '/v2/subscribers/s',
  url,
  status: 200,
  durationMs: 1,
  responseBody,
})
const BODY = { data: 'x'.repeat(1000) }

describe('RequestJournal bounds', () => {
  it('shows an entry as it was called: the query parsed from the URL, the body as it was', () => {
    const journal = new RequestJournal(10)
    journal.record('t', call(BODY))
    expect(journal.list('t')).toEqual([expect.objectContaining({ id: 1, query: { limit: '10', tag: ['a', 'b'] }, responseBody: BODY })])
  })

  it('hands listeners the entry as the admin API shows it, as JSON: cut bodies, violations and all', () => {
    const journal = new RequestJournal(10)
    const events: string[] = []
    journal.subscribe('t', (event) => events.push(event.json))
    journal.record('t', call({ big: 'y'.repeat(BODY_LIMIT) }))
    journal.record('t', { ...call(BODY), requestBody: { markAs: 'read' }, violations: [{ direction: 'response', message: 'x' }] })
    journal.record('t', { ...call(undefined), status: 204 })
    expect(events).toEqual(journal.list('t').map((entry) => JSON.stringify(entry)))
    expect(journal.list('t')[0]!.truncated).toBe(true)
  })

  it('keeps the last `size` entries of a tenant', () => {
    const journal = new RequestJournal(3)
    for (let i = 0; i < 5; i++) journal.record('t', call({ i }))
    expect(journal.list('t').map((e) => e.responseBody)).toEqual([{ i: 2 }, { i: 3 }, { i: 4 }])
  })

  it('stays within its bytes over all tenants, dropping the entries of the tenants that called least recently', () => {
    // Each entry is ~1.4 KB with its overhead: room for about ten.
    const journal = new RequestJournal(1000, 100, 15_000)
    for (let tenant = 0; tenant < 100; tenant++) journal.record(`tenant-${tenant}`, call(BODY))
    expect(journal.list('tenant-99')).toHaveLength(1)
    expect(journal.list('tenant-92')).toHaveLength(1)
    expect(journal.list('tenant-0')).toHaveLength(0)
    expect(journal.list('tenant-50')).toHaveLength(0)
    for (let i = 0; i < 30; i++) journal.record('busy', call(BODY))
    expect(journal.list('busy').length).toBeGreaterThan(5)
    expect(journal.list('busy').length).toBeLessThan(12)
    expect(journal.list('tenant-99')).toHaveLength(0)
  })
})
