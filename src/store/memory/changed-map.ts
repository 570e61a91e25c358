import { LayeredMap } from './layered-map.ts'

/**
 * `map` with `changes` applied: a value set, null removing its key. Without removals a layer over the
 * shared base (LayeredMap); a removal (a deleted message, rare) copies the map once.
 */
export function changedMap<V>(map: ReadonlyMap<string, V>, changes: ReadonlyMap<string, V | null>): ReadonlyMap<string, V> {
  let removes = false
  for (const value of changes.values()) if (value === null) removes = true
  if (!removes) return LayeredMap.with(map, changes as ReadonlyMap<string, V>)
  const next = new Map(map)
  for (const [key, value] of changes) {
    if (value === null) next.delete(key)
    else next.set(key, value)
  }
  return next
}
