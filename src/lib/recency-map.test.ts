import { describe, expect, it } from 'vitest'
import { RecencyMap } from './recency-map.ts'

describe('RecencyMap.touch', () => {
  it('makes a missing value once, and moves a touched tenant to the most recent end', () => {
    const map = new RecencyMap<string[]>()
    const made: string[] = []
    const make = (tenant: string) => () => (made.push(tenant), [tenant])
    const a = map.touch('a', make('a'))
    map.touch('b', make('b'))
    map.touch('c', make('c'))
    expect(map.touch('a', make('a'))).toBe(a)
    expect([...map.keys()]).toEqual(['b', 'c', 'a'])
    map.touch('a', make('a'))
    expect([...map.keys()]).toEqual(['b', 'c', 'a'])
    expect(made).toEqual(['a', 'b', 'c'])
  })

  it('keeps the order true after deletes, clears and sets of keys already present', () => {
    const map = new RecencyMap<number>()
    map.touch('a', () => 1)
    map.touch('b', () => 2)
    map.delete('b')
    map.touch('a', () => 0)
    map.touch('b', () => 3)
    map.set('a', 4)
    expect([...map]).toEqual([['a', 4], ['b', 3]])
    map.touch('a', () => 0)
    expect([...map.keys()]).toEqual(['b', 'a'])
    map.clear()
    map.touch('c', () => 5)
    map.touch('a', () => 6)
    map.touch('c', () => 0)
    expect([...map]).toEqual([['a', 6], ['c', 5]])
  })
})
