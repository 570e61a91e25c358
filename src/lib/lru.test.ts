import { describe, expect, it } from 'vitest'
import { Lru } from './lru.ts'

describe('Lru', () => {
  it('makes a missing value once, and drops the least recently used past its bound', () => {
    const made: string[] = []
    const lru = new Lru<string>(2)
    const make = (key: string) => (made.push(key), key.toUpperCase())
    expect(lru.remember('a', make)).toBe('A')
    lru.remember('b', make)
    expect(lru.remember('a', make)).toBe('A')
    lru.remember('c', make)
    expect([...lru.leastRecentFirst()]).toEqual([['a', 'A'], ['c', 'C']])
    expect(made).toEqual(['a', 'b', 'c'])
  })

  it('makes the value of a key past the longest kept every time, never keeping it', () => {
    const lru = new Lru<number>(10, { longestKey: 3 })
    let made = 0
    lru.remember('long key', () => ++made)
    lru.remember('long key', () => ++made)
    expect(made).toBe(2)
    expect(lru.size).toBe(0)
  })

  it('tells of each value that leaves, dropped or deleted', () => {
    const left: string[] = []
    const lru = new Lru<string>(1, { dispose: (_value, key) => left.push(key) })
    lru.remember('a', () => 'A')
    lru.remember('b', () => 'B')
    lru.delete('b')
    expect(left).toEqual(['a', 'b'])
  })
})
