import { describe, expect, it } from 'vitest'
import { subscriberCall } from '../../test/helpers/journals.ts'
import { BODY_LIMIT } from './kept-entry.ts'
import { RequestJournal, type JournalCall } from './request-journal.ts'

const call = (responseBody: unknown): JournalCall => subscriberCall({ responseBody })
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

  it('keeps the journals of at most 10,000 tenants, the one that called least recently going first', () => {
    const journal = new RequestJournal(1000)
    for (let tenant = 0; tenant <= 10_000; tenant++) journal.record(`tenant-${tenant}`, call({}))
    expect(journal.list('tenant-0')).toHaveLength(0)
    expect(journal.list('tenant-1')).toHaveLength(1)
    expect(journal.list('tenant-10000')).toHaveLength(1)
  })

  it('counts a body as V8 holds it: two bytes a character past Latin-1', () => {
    const latin = new RequestJournal(1000, 100, 100_000)
    const wide = new RequestJournal(1000, 100, 100_000)
    for (let i = 0; i < 60; i++) {
      latin.record('t', call({ data: 'é'.repeat(1000) }))
      wide.record('t', call({ data: '€'.repeat(1000) }))
    }
    expect(latin.list('t').length).toBeGreaterThan(55)
    expect(wide.list('t').length).toBeLessThan(50)
  })

  it('counts a cut body at the characters it keeps', () => {
    const journal = new RequestJournal(1000, 100, 200_000)
    for (let i = 0; i < 20; i++) journal.record('t', call({ data: 'x'.repeat(1_000_000) }))
    const entries = journal.list('t')
    expect(entries.length).toBeGreaterThan(10)
    expect(entries.every((entry) => entry.truncated && (entry.responseBody as string).length === BODY_LIMIT)).toBe(true)
  })
})
