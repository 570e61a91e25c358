import { describe, expect, it } from 'vitest'
import { keptOf, statedEntryOf, STATE_LIMIT } from '../../journal/kept-entry.ts'
import { ReadCapture } from './read-capture.ts'

const call = (state: ReadCapture) => ({ time: '2026-11-28T00:00:00.000Z', operationId: 'op', method: 'GET', path: '/p', url: '/p', status: 200, durationMs: 1, responseBody: {}, state: state.stated() })

describe('ReadCapture: the records a call read, kept for the journal', () => {
  it('is no state when nothing was read', () => {
    expect(new ReadCapture().stated()).toBeUndefined()
  })

  it('answers JSON.stringify of the first reading of each record, by collection in the order first read, and its length', () => {
    const capture = new ReadCapture()
    const subscribers = Array.from({ length: 40 }, (_, i) => ({ subscriberId: `s${i}`, name: `n\u00e9 "${i}"`, tags: [i, null] }))
    capture.note('messages', 'm1', { _id: 'm1', read: false })
    for (const subscriber of subscribers) capture.note('subscribers', subscriber.subscriberId, subscriber)
    capture.note('messages', 'm1', { _id: 'm1', read: true })
    capture.note('subscribers', 's3', { subscriberId: 's3', name: 'later' })
    capture.note('messages', 'm2', { _id: 'm2' })
    const expected = JSON.stringify({ messages: [{ _id: 'm1', read: false }, { _id: 'm2' }], subscribers })
    expect(capture.json()).toBe(expected)
    expect(capture.jsonLength()).toBe(expected.length)
  })

  it('is kept by the journal as JSON when shown, or marked truncated past STATE_LIMIT', () => {
    const small = new ReadCapture()
    small.note('subscribers', 's1', { subscriberId: 's1' })
    expect(statedEntryOf(keptOf(1, call(small))).state).toBe('{"subscribers":[{"subscriberId":"s1"}]}')
    const large = new ReadCapture()
    large.note('subscribers', 's1', { subscriberId: 's1', data: 'x'.repeat(STATE_LIMIT) })
    const entry = statedEntryOf(keptOf(2, call(large)))
    expect(entry.state).toBeUndefined()
    expect(entry.truncated).toBe(true)
  })
})
