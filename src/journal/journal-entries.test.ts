import { describe, expect, it } from 'vitest'
import { collected, JOURNAL_KINDS, journalsOf, subscribed, subscriberCall } from '../../test/helpers/journals.ts'
import { BODY_LIMIT } from './kept-entry.ts'
import type { JournalCall } from './journal-port.ts'

const call = (responseBody: unknown, url = '/v2/subscribers/s?limit=10&tag=a&tag=b'): JournalCall => subscriberCall({ responseBody, url })
const BODY = { data: 'x'.repeat(1000) }

describe.each(JOURNAL_KINDS)('the journal %s: its entries', (kind) => {
  const journalOf = journalsOf(kind)

  it('shows an entry as it was called: the query parsed from the URL, the body as it was', async () => {
    const journal = await journalOf(10)
    journal.record('t', call(BODY))
    expect(await journal.list('t')).toEqual([expect.objectContaining({ id: 1, query: { limit: '10', tag: ['a', 'b'] }, responseBody: BODY })])
  })

  it('hands listeners the entry as the admin API shows it, as JSON: cut bodies, violations and all', async () => {
    const journal = await journalOf(10)
    const events = collected((event) => event.json)
    await subscribed(journal, 't', events.listener)
    journal.record('t', call({ big: 'y'.repeat(BODY_LIMIT) }))
    journal.record('t', { ...call(BODY), requestBody: { markAs: 'read' }, violations: [{ direction: 'response', message: 'x' }] })
    journal.record('t', { ...call(undefined), status: 204 })
    const listed = await journal.list('t')
    expect(await events.until(3)).toEqual(listed.map((entry) => JSON.stringify(entry)))
    expect(listed[0]!.truncated).toBe(true)
  })

  it('keeps the last `size` entries of a tenant, ids increasing', async () => {
    const journal = await journalOf(3)
    for (let i = 0; i < 5; i++) journal.record('t', call({ i }))
    journal.record('other', call({ i: 'other' }))
    expect((await journal.list('t')).map((e) => [e.id, e.responseBody])).toEqual([[3, { i: 2 }], [4, { i: 3 }], [5, { i: 4 }]])
    expect(await journal.list('other')).toEqual([expect.objectContaining({ id: 1 })])
  })

  it('lists what the filters ask for, the most recent `limit` of them, oldest first', async () => {
    const journal = await journalOf(10)
    const calls: JournalCall[] = [
      { ...call({ n: 1 }), time: '2026-11-23T10:00:00.000Z' },
      { ...call({ n: 2 }), time: '2026-11-23T10:00:01.000Z', status: 404 },
      { ...call({ n: 3 }), time: '2026-11-23T10:00:02.000Z', operationId: 'markMessagesAs', method: 'POST', path: '/x' },
      { ...call({ n: 4 }), time: '2026-11-23T10:00:03.000Z' },
    ]
    for (const each of calls) journal.record('t', each)
    const ns = async (filter: Parameters<typeof journal.list>[1]) => (await journal.list('t', filter)).map((entry) => (entry.responseBody as { n: number }).n)
    expect(await ns({})).toEqual([1, 2, 3, 4])
    expect(await ns({ id: 3 })).toEqual([3])
    expect(await ns({ id: 9 })).toEqual([])
    expect(await ns({ operationId: 'getSubscriber' })).toEqual([1, 2, 4])
    expect(await ns({ method: 'POST' })).toEqual([3])
    expect(await ns({ path: '/v2/subscribers/s' })).toEqual([1, 2, 4])
    expect(await ns({ status: 404 })).toEqual([2])
    expect(await ns({ since: '2026-11-23T10:00:01.000Z' })).toEqual([2, 3, 4])
    expect(await ns({ limit: 2 })).toEqual([3, 4])
    expect(await ns({ limit: 9 })).toEqual([1, 2, 3, 4])
    expect(await ns({ operationId: 'getSubscriber', limit: 2 })).toEqual([2, 4])
    expect(await ns({ id: 2, status: 200 })).toEqual([])
  })

  it('clears a tenant, answering how many it removed, and leaves the others', async () => {
    const journal = await journalOf(10)
    for (let i = 0; i < 3; i++) journal.record('t', call({ i }))
    journal.record('other', call({}))
    expect(await journal.clear('t')).toBe(3)
    expect(await journal.clear('t')).toBe(0)
    expect(await journal.list('t')).toEqual([])
    expect(await journal.list('other')).toHaveLength(1)
  })

  it('keeps nothing with a size of 0', async () => {
    const journal = await journalOf(0)
    journal.record('t', call({}))
    expect(await journal.list('t')).toEqual([])
  })
})
