import { describe, expect, it } from 'vitest'
import { GenerationalMap } from '../../src/generational-map.ts'

describe('GenerationalMap', () => {
  it('keeps the last generationSize keys at least and twice that at most, dropping a whole generation when the young one is full', () => {
    const map = new GenerationalMap<number>(3)
    const dropped: string[][] = []
    for (let i = 0; i < 10; i++) {
      const gone = map.add(`k${i}`, i)
      if (gone) dropped.push([...gone.keys()])
      expect(map.size).toBeGreaterThanOrEqual(Math.min(i + 1, 3))
      expect(map.size).toBeLessThanOrEqual(6)
    }
    expect(dropped).toEqual([[], ['k0', 'k1', 'k2'], ['k3', 'k4', 'k5']])
    expect(map.get('k9')).toBe(9)
    expect(map.get('k6')).toBe(6)
    expect(map.get('k5')).toBeUndefined()
  })

  it('deletes from either generation, and drops the oldest generation on demand', () => {
    const map = new GenerationalMap<number>(2)
    for (const [i, key] of ['a', 'b', 'c'].entries()) map.add(key, i)
    expect(map.delete('a')).toBe(0) // old
    expect(map.delete('c')).toBe(2) // young
    expect(map.delete('c')).toBeUndefined()
    expect(map.size).toBe(1)
    map.add('d', 3)
    expect([...map.dropOldest().keys()]).toEqual(['b'])
    expect([...map.dropOldest().keys()]).toEqual(['d'])
    expect(map.size).toBe(0)
  })
})
