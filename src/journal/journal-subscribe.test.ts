import { describe, expect, it } from 'vitest'
import { collected, JOURNAL_KINDS, journalsOf, subscribed } from '../../test/helpers/journals.ts'
import { BODY_LIMIT } from './kept-entry.ts'
import type { JournalCall, JournalEntry, JournalEvent } from './journal-port.ts'

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
const parsed = (event: JournalEvent) => JSON.parse(event.json) as JournalEntry

describe.each(JOURNAL_KINDS)('the journal %s: subscribe', (kind) => {
  const journalOf = journalsOf(kind)

  it('hands over each entry of its tenant as kept, secrets redacted, until unsubscribed', async () => {
    const journal = await journalOf(10)
    const seen = collected(parsed)
    const stop = (await subscribed(journal, 'a', seen.listener))!
    journal.record('b', call('other tenant'))
    journal.record('a', call('first', { key: 'idem-1' }), { secret: 'idem-1' })
    await seen.until(1)
    stop()
    // A listener that stays: once it has the next entry, the stopped one would have had it too.
    const stays = collected()
    await subscribed(journal, 'a', stays.listener)
    journal.record('a', call('after'))
    await stays.until(1)
    expect(seen.items).toEqual((await journal.list('a')).slice(0, 1))
    expect(seen.items[0]!.requestBody).toEqual({ key: '[redacted]' })
    expect(journal.subscribers).toBe(1)
  })

  it('is bounded over all tenants, and an unsubscribe (even repeated) frees exactly one place', async () => {
    const journal = await journalOf(10, 2)
    const stopA = journal.subscribe('a', () => {})!
    expect(journal.subscribe('b', () => {})).toBeDefined()
    // Every key holds as many as the newcomer's: none gives way.
    expect(journal.subscribe('a', () => {})).toBeUndefined()
    stopA()
    stopA()
    expect(journal.subscribers).toBe(1)
    expect(journal.subscribe('c', () => {})).toBeDefined()
    expect(journal.subscribe('c', () => {})).toBeUndefined()
  })

  it('at the bound, gives a key holding fewer the oldest place of the busiest key, telling that one why', async () => {
    const journal = await journalOf(10, 4)
    const closed: string[] = []
    const stops = ['first', 'second', 'third'].map((name) => journal.subscribe('busy', () => {}, { closed: (reason) => closed.push(`${name}: ${reason}`) })!)
    expect(journal.subscribe('quiet', () => {})).toBeDefined()
    const seen = collected()
    expect(await subscribed(journal, 'newcomer', seen.listener)).toBeDefined()
    expect(closed).toEqual(['first: the server holds at most 4 event streams: this key\'s oldest gave way to a key holding fewer'])
    expect(journal.subscribers).toBe(4)
    stops[0]!() // stopped already: frees nothing
    expect(journal.subscribers).toBe(4)
    // busy 2, quiet 1, newcomer 1: quiet's second takes busy's (now) oldest; then every key holds 2, or fewer than the newcomer's.
    expect(journal.subscribe('quiet', () => {})).toBeDefined()
    expect(closed).toHaveLength(2)
    expect(journal.subscribe('quiet', () => {})).toBeUndefined()
    journal.record('newcomer', call('getSubscriber'))
    expect(await seen.until(1)).toHaveLength(1)
  })

  it('hands a listener that asked for no bodies the entry without them, the others the whole entry', async () => {
    const journal = await journalOf(10)
    const whole = collected(parsed)
    const summary = collected(parsed)
    await subscribed(journal, 'a', whole.listener)
    await subscribed(journal, 'a', summary.listener, { bodies: false })
    journal.record('a', { ...call('one', { text: 'x'.repeat(BODY_LIMIT + 1) }), responseBody: { ok: true } })
    const [entry] = await journal.list('a')
    expect(await whole.until(1)).toEqual([entry])
    expect(entry).toMatchObject({ truncated: true, responseBody: { ok: true } })
    const { requestBody, responseBody, truncated, ...withoutBodies } = entry!
    expect(await summary.until(1)).toEqual([withoutBodies])
  })

  it('streams the entry the admin API shows, whatever its path, query and duration hold', async () => {
    const journal = await journalOf(10)
    const summary = collected((event) => JSON.parse(event.json) as unknown)
    await subscribed(journal, 'a', summary.listener, { bodies: false })
    const path = '/v2/subscribers/a"b\\c\u2028d\u0001'
    journal.record('a', { ...call('getSubscriber'), method: 'GET', path, url: `${path}?limit=10&name=%22x%22&name=y`, status: 200, durationMs: 0.123456789 })
    journal.record('a', { ...call('getSubscriber'), path, url: path, durationMs: 12 })
    expect(await summary.until(2)).toEqual(await journal.list('a'))
    expect(summary.items[0]).toMatchObject({ path, query: { limit: '10', name: ['"x"', 'y'] }, durationMs: 0.123456789 })
  })

  it('keeps recording when a listener throws, and still notifies the others', async () => {
    const journal = await journalOf(10)
    const seen = collected((event) => parsed(event).operationId)
    await subscribed(journal, 'a', () => {
      throw new Error('broken stream')
    })
    await subscribed(journal, 'a', seen.listener)
    expect(() => journal.record('a', call('one'))).not.toThrow()
    expect(await seen.until(1)).toEqual(['one'])
    expect(await journal.list('a')).toHaveLength(1)
  })

  it('calls `ready` after subscribe returns, and not once the subscription is stopped', async () => {
    const journal = await journalOf(10)
    const readied: string[] = []
    const stopped = journal.subscribe('a', () => {}, { ready: () => readied.push('stopped') })!
    const kept = journal.subscribe('a', () => {}, { ready: () => readied.push('kept') })
    expect(kept).toBeDefined()
    expect(readied).toEqual([])
    stopped()
    await subscribed(journal, 'a', () => {})
    expect(readied).toEqual(['kept'])
  })
})
