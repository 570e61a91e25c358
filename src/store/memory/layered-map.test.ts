import { describe, expect, it } from 'vitest'
import { changed, LayeredMap } from './layered-map.ts'
import { prng } from '../../../test/helpers/prng.ts'

const SEED = 20261123

/** Every way a reader sees a map, in order. */
const view = <V>(map: ReadonlyMap<string, V>) => {
  const forEach: [string, V][] = []
  map.forEach((value, key) => forEach.push([key, value]))
  return { size: map.size, entries: [...map], keys: [...map.keys()], values: [...map.values()], forEach }
}

describe('LayeredMap.with', () => {
  it(`reads, iterates and counts as a Map given the same writes, and leaves every earlier version as it was (seed ${SEED})`, () => {
    const random = prng(SEED)
    const keyOf = (n: number) => `k${Math.floor(random() * n)}`
    let reference = new Map(Array.from({ length: 400 }, (_, i) => [`k${i}`, i] as [string, number]))
    let layered: ReadonlyMap<string, number> = new Map(reference)
    const versions: [ReadonlyMap<string, number>, ReturnType<typeof view>][] = []
    for (let write = 0; write < 300; write++) {
      // Mostly replacements, some new keys; a few changes per write, as a transaction makes.
      const changes = new Map(Array.from({ length: 1 + Math.floor(random() * 3) }, () => [keyOf(500), write] as [string, number]))
      reference = new Map(reference)
      for (const [key, value] of changes) reference.set(key, value)
      layered = LayeredMap.with(layered, changes)
      expect(view(layered)).toEqual(view(reference))
      for (const key of ['k0', keyOf(500), keyOf(600)]) {
        expect(layered.get(key)).toBe(reference.get(key))
        expect(layered.has(key)).toBe(reference.has(key))
      }
      if (write % 50 === 0) versions.push([layered, view(layered)])
    }
    for (const [version, seen] of versions) expect(view(version)).toEqual(seen)
  })

  it('answers the same map when nothing changed, and folds a layer that outgrew the square root of its base', () => {
    const base = new Map(Array.from({ length: 16 }, (_, i) => [`k${i}`, i] as [string, number]))
    expect(LayeredMap.with(base, new Map())).toBe(base)
    let map: ReadonlyMap<string, number> = base
    for (let i = 0; i < 4; i++) map = LayeredMap.with(map, new Map([[`k${i}`, 100 + i]]))
    expect(map).toBeInstanceOf(LayeredMap)
    map = LayeredMap.with(map, new Map([['k4', 104]]))
    expect(map).toBeInstanceOf(Map)
    expect([...map.values()].slice(0, 6)).toEqual([100, 101, 102, 103, 104, 5])
  })

  it('changed: deletes leave the map without them, the base untouched; a key deleted and put again comes last', () => {
    const base = LayeredMap.with(new Map(Array.from({ length: 16 }, (_, i) => [`k${i}`, i] as [string, number])), new Map([['k1', 101]]))
    const before = [...base.entries()]
    const after = changed(base, new Map<string, number | null>([['k0', null], ['k2', 102]]))
    expect([...after.keys()].slice(0, 3)).toEqual(['k1', 'k2', 'k3'])
    expect(after.has('k0')).toBe(false)
    expect(after.size).toBe(15)
    expect([...base.entries()]).toEqual(before)
    const again = changed(after, new Map([['k0', 7]]))
    expect([...again.entries()].at(-1)).toEqual(['k0', 7])
  })
})
