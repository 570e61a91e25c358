import { describe, expect, it } from 'vitest'
import { RecentKeys } from '../../src/recent-keys.ts'

/**
 * The same rules as a plain array, oldest first: what RecentKeys must agree with. A deleted key
 * leaves a hole that counts towards the capacity until the oldest end reaches it.
 */
class Reference {
  entries: ([string, number] | undefined)[] = []
  constructor(private readonly capacity: number) {}
  get held() {
    return this.entries.filter(Boolean).length
  }
  add(key: string, value: number): number | undefined {
    const dropped = this.entries.length === this.capacity ? this.entries.shift()![1] : undefined
    this.trim()
    this.entries.push([key, value])
    return dropped
  }
  get(key: string) {
    return this.entries.find((entry) => entry?.[0] === key)?.[1]
  }
  delete(key: string) {
    const i = this.entries.findIndex((entry) => entry?.[0] === key)
    if (i < 0) return undefined
    const value = this.entries[i]![1]
    this.entries[i] = undefined
    this.trim()
    return value
  }
  dropOldest() {
    const value = this.entries.shift()?.[1]
    this.trim()
    return value
  }
  /** Holes at either end are no place of anyone's. */
  private trim() {
    while (this.entries.length > 0 && this.entries[0] === undefined) this.entries.shift()
    while (this.entries.length > 0 && this.entries.at(-1) === undefined) this.entries.pop()
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

describe('RecentKeys', () => {
  it('keeps the last `capacity` keys, dropping the oldest one per key added once full', () => {
    const keys = new RecentKeys<number>(3)
    const dropped = Array.from({ length: 6 }, (_, i) => keys.add(`k${i}`, i))
    expect(dropped).toEqual([undefined, undefined, undefined, 0, 1, 2])
    expect(keys.size).toBe(3)
    expect(['k2', 'k3', 'k4', 'k5'].map((key) => keys.get(key))).toEqual([undefined, 3, 4, 5])
  })

  it('forgets a deleted key, and counts its place until the ring passes it', () => {
    const keys = new RecentKeys<number>(3)
    for (const [i, key] of ['a', 'b', 'c'].entries()) keys.add(key, i)
    expect(keys.delete('b')).toBe(1)
    expect(keys.delete('b')).toBeUndefined()
    expect(keys.get('b')).toBeUndefined()
    expect(keys.size).toBe(2)
    // The ring is full (a, hole, c): adding drops the oldest, a, and the hole goes with it.
    expect(keys.add('d', 3)).toBe(0)
    expect(keys.size).toBe(2)
    expect(keys.add('e', 4)).toBeUndefined()
    expect(keys.dropOldest()).toBe(2)
    expect(keys.dropOldest()).toBe(3)
    expect(keys.dropOldest()).toBe(4)
    expect(keys.dropOldest()).toBeUndefined()
    expect(keys.size).toBe(0)
  })

  it('gives back the place of the key added last when it is deleted', () => {
    const keys = new RecentKeys<number>(2)
    keys.add('a', 0)
    keys.add('b', 1)
    keys.delete('b')
    expect(keys.add('c', 2)).toBeUndefined()
    expect([keys.get('a'), keys.get('c')]).toEqual([0, 2])
  })

  it('grows to its capacity keeping every key and their order', () => {
    const keys = new RecentKeys<number>(1000)
    for (let i = 0; i < 1000; i++) expect(keys.add(`key-${i}`, i)).toBeUndefined()
    for (let i = 0; i < 1000; i += 7) expect(keys.get(`key-${i}`)).toBe(i)
    expect(keys.add('one more', -1)).toBe(0)
    expect(keys.size).toBe(1000)
  })

  it('agrees with a plain array over random adds, gets, deletes and drops', () => {
    for (const capacity of [1, 2, 5, 8, 37]) {
      const random = randomFrom(capacity)
      const keys = new RecentKeys<number>(capacity)
      const reference = new Reference(capacity)
      let next = 0
      for (let step = 0; step < 5000; step++) {
        // Keys from a small pool, so that gets and deletes often hit, and probe chains form and break.
        const key = `k${random(3 * capacity + 3)}`
        const choice = random(10)
        if (choice < 5) {
          if (reference.get(key) === undefined) expect(keys.add(key, next), `add ${key}`).toBe(reference.add(key, next++))
        } else if (choice < 8) expect(keys.delete(key), `delete ${key}`).toBe(reference.delete(key))
        else if (choice < 9) expect(keys.dropOldest()).toBe(reference.dropOldest())
        expect(keys.size).toBe(reference.held)
        const pool = Array.from({ length: 3 * capacity + 3 }, (_, i) => `k${i}`)
        expect(pool.map((k) => keys.get(k)), `gets at step ${step}`).toEqual(pool.map((k) => reference.get(k)))
      }
    }
  })
})
