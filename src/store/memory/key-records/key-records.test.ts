import { describe, expect, it } from 'vitest'
import { KeyRecords, type ByteCount } from './key-records.ts'

interface Entry {
  id: number
  key: string
  bytes: number
}

/**
 * The same rules as a plain array, oldest first: what KeyRecords must agree with. Ids count the
 * records opened; the records held span at most the capacity rounded up to a power of two, so a
 * record removed before its turn leaves a hole that counts until the oldest end passes it.
 */
class Reference {
  entries: Entry[] = []
  next = 1
  private readonly span: number
  constructor(private readonly capacity: number) {
    this.span = 2 ** Math.ceil(Math.log2(capacity))
  }
  get bytes() {
    return this.entries.reduce((sum, entry) => sum + entry.bytes, 0)
  }
  private get oldest() {
    return this.entries[0]?.id ?? this.next
  }
  find(key: string) {
    return this.entries.find((entry) => entry.key === key)?.id ?? 0
  }
  open(key: string, path: string) {
    while (this.entries.length >= this.capacity || this.next - this.oldest >= this.span) this.entries.shift()
    this.entries.push({ id: this.next, key, bytes: 100 + key.length + path.length })
    return this.next++
  }
  answered(id: number, json: string) {
    this.entries.find((entry) => entry.id === id)!.bytes += json.length
  }
  remove(id: number) {
    this.entries = this.entries.filter((entry) => entry.id !== id)
  }
  dropOldest(except = 0) {
    const oldest = this.entries.find((entry) => entry.id !== except)
    if (oldest) this.remove(oldest.id)
  }
}

/** A small deterministic generator (a linear congruential one), so a failure replays. */
function randomFrom(seed: number) {
  let state = seed
  return (below: number) => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0
    return (state >>> 8) % below
  }
}

const recordsOf = (capacity: number) => {
  const count: ByteCount = { bytes: 0 }
  return { records: new KeyRecords(capacity, count), count }
}

describe('KeyRecords', () => {
  it('keeps the last `capacity` keys, dropping the oldest one per key opened once full', () => {
    const { records } = recordsOf(3)
    const ids = Array.from({ length: 6 }, (_, i) => records.open(`k${i}`, 'POST', '/p', '', 0))
    expect(ids).toEqual([1, 2, 3, 4, 5, 6])
    expect(records.size).toBe(3)
    expect(['k2', 'k3', 'k4', 'k5'].map((key) => records.find(key))).toEqual([0, 4, 5, 6])
  })

  it('keeps what a record was opened with and answered, and counts its bytes until it is removed', () => {
    const { records, count } = recordsOf(10)
    const id = records.open('key', 'PATCH', '/v1/path', '{"a":1}', 1234)
    expect(count.bytes).toBe(100 + 3 + 8 + 7)
    expect([records.isOpen(id), records.status(id), records.expiresAt(id)]).toEqual([true, 0, 1234])
    expect(records.matches(id, 'PATCH', '/v1/path', '{"a":1}')).toBe(true)
    expect(records.matches(id, 'POST', '/v1/path', '{"a":1}')).toBe(false)
    expect(records.matches(id, 'PATCH', '/v1/other', '{"a":1}')).toBe(false)
    expect(records.matches(id, 'PATCH', '/v1/path', '{"a":2}')).toBe(false)
    records.answered(id, 201, '{"done":true}')
    expect([records.isOpen(id), records.status(id), records.answer(id)]).toEqual([false, 201, '{"done":true}'])
    expect(count.bytes).toBe(100 + 3 + 8 + 7 + 13)
    records.remove(id)
    expect([records.find('key'), records.size, count.bytes]).toEqual([0, 0, 0])
  })

  it('tells a record removed or dropped from the record opened after it in its place', () => {
    const { records } = recordsOf(2)
    const first = records.open('a', 'POST', '/p', '', 0)
    records.open('b', 'POST', '/p', '', 0)
    const third = records.open('c', 'POST', '/p', '', 0)
    expect(records.isOpen(first)).toBe(false)
    expect(records.isOpen(third)).toBe(true)
    records.remove(first)
    expect([records.find('b'), records.find('c')]).toEqual([2, 3])
  })

  it('grows to its capacity keeping every key in its place', () => {
    const { records } = recordsOf(1000)
    for (let i = 0; i < 1000; i++) records.open(`key-${i}`, 'POST', `/p/${i}`, '', i)
    for (let i = 0; i < 1000; i += 7) {
      const id = records.find(`key-${i}`)
      expect(id).toBe(i + 1)
      expect(records.matches(id, 'POST', `/p/${i}`, '')).toBe(true)
      expect(records.expiresAt(id)).toBe(i)
    }
    records.open('one more', 'POST', '/p', '', 0)
    expect([records.size, records.find('key-0'), records.find('key-1')]).toEqual([1000, 0, 2])
  })

  it('agrees with a plain array over random opens, answers, finds, removals and drops', () => {
    for (const capacity of [1, 2, 5, 8, 37]) {
      const random = randomFrom(capacity)
      const { records, count } = recordsOf(capacity)
      const reference = new Reference(capacity)
      const pool = Array.from({ length: 3 * capacity + 3 }, (_, i) => `k${i}`)
      for (let step = 0; step < 5000; step++) {
        // Keys from a small pool, so that finds and removals often hit, and probe chains form and break.
        const key = pool[random(pool.length)]!
        const held = reference.find(key)
        const choice = random(10)
        if (choice < 5) {
          if (held === 0) expect(records.open(key, 'POST', `/${step}`, '', step), `open ${key}`).toBe(reference.open(key, `/${step}`))
          else if (records.isOpen(held)) {
            records.answered(held, 200, `"${step}"`)
            reference.answered(held, `"${step}"`)
          }
        } else if (choice < 8) {
          records.remove(held)
          reference.remove(held)
        } else {
          const except = choice === 9 ? held : 0
          records.dropOldest(except)
          reference.dropOldest(except)
        }
        expect([records.size, count.bytes], `size and bytes at step ${step}`).toEqual([reference.entries.length, reference.bytes])
        expect(pool.map((k) => records.find(k)), `finds at step ${step}`).toEqual(pool.map((k) => reference.find(k)))
      }
    }
  })
})
