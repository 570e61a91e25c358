import { describe, expect, it } from 'vitest'
import { RequestJournal, type JournalCall } from './request-journal.ts'

const call = (responseBody: unknown): JournalCall => ({
  time: '2026-11-23T10:00:00.000Z',
  operationId: 'getSubscriber',
  method: 'GET',
  path: '/v2/subscribers/s',
  url: '/v2/subscribers/s',
  status: 200,
  durationMs: 1,
  responseBody,
})
const BODY = { data: 'x'.repeat(1000) }

describe('RequestJournal bounds', () => {
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
