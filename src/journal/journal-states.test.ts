import { describe, expect, it } from 'vitest'
import { JOURNAL_KINDS, journalsOf, stateOf, subscriberCall } from '../../test/helpers/journals.ts'
import { STATE_LIMIT } from './kept-entry.ts'
import type { JournalCall } from './journal-port.ts'

const call = (state: string | undefined, responseBody: unknown = { ok: true }): JournalCall =>
  subscriberCall({ responseBody, ...(state === undefined ? {} : { state: stateOf(state) }) })
const STATE = JSON.stringify({ subscribers: [{ _id: '64f000000000000000000001', subscriberId: 's' }] })

describe.each(JOURNAL_KINDS)('the journal %s: the records a call read (its Pact provider state)', (kind) => {
  const journalOf = journalsOf(kind)

  it('keeps them for the export, and never shows them in the listing', async () => {
    const journal = await journalOf(10)
    journal.record('t', call(STATE))
    journal.record('t', call(undefined))
    const [stated, none] = await journal.list('t', {}, true)
    expect(stated!.state).toBe(STATE)
    expect(none!.state).toBeUndefined()
    expect((await journal.list('t'))[0]).not.toHaveProperty('state')
  })

  it('keeps none past the limit, and marks the entry truncated for the export', async () => {
    const journal = await journalOf(10)
    journal.record('t', call(JSON.stringify({ subscribers: [{ data: 'x'.repeat(STATE_LIMIT) }] })))
    const [entry] = await journal.list('t', {}, true)
    expect(entry).toMatchObject({ truncated: true })
    expect(entry!.state).toBeUndefined()
  })

  it('hides the idempotency key in them, as in the bodies', async () => {
    const journal = await journalOf(10)
    journal.record('t', call(JSON.stringify({ subscribers: [{ data: 'key-s3cret' }] })), { secret: 'key-s3cret' })
    const [entry] = await journal.list('t', {}, true)
    expect(entry!.state).not.toContain('key-s3cret')
  })
})
