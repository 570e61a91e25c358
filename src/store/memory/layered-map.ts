/**
 * An immutable map made of a shared base and a small layer of replaced or added entries over it,
 * iterated in a Map's order (a replaced key keeps its place, an added one comes last). A write
 * copies only the layer; the layer is folded into a new base once it outgrows the square root of
 * the base, so a write costs about 2·√n copied entries instead of n, and reads cost two lookups.
 * Deletes are rare (a subscriber removed): `changed` makes a plain copy for them.
 */
export class LayeredMap<K, V> implements ReadonlyMap<K, V> {
  private constructor(
    private readonly base: ReadonlyMap<K, V>,
    private readonly layer: ReadonlyMap<K, V>,
    readonly size: number,
  ) {}

  /** `map` with each of `changes` set over it; `map` itself is left as it was. */
  static with<K, V>(map: ReadonlyMap<K, V>, changes: ReadonlyMap<K, V>): ReadonlyMap<K, V> {
    if (changes.size === 0) return map
    const [base, previous] = map instanceof LayeredMap ? [map.base, map.layer] : [map, new Map<K, V>()]
    const layer = new Map(previous)
    let size = map.size
    for (const [key, value] of changes) {
      if (!layer.has(key) && !base.has(key)) size++
      layer.set(key, value)
    }
    if (layer.size * layer.size <= base.size) return new LayeredMap(base, layer, size)
    const folded = new Map(base)
    for (const [key, value] of layer) folded.set(key, value)
    return folded
  }

  get(key: K): V | undefined {
    return this.layer.has(key) ? this.layer.get(key) : this.base.get(key)
  }

  has(key: K): boolean {
    return this.layer.has(key) || this.base.has(key)
  }

  *entries(): MapIterator<[K, V]> {
    for (const [key, value] of this.base) yield [key, this.layer.has(key) ? (this.layer.get(key) as V) : value]
    for (const entry of this.layer) if (!this.base.has(entry[0])) yield entry
  }

  // keys() and values() walk the maps themselves rather than entries(): no [key, value] pair is
  // made per record for them (set-primary reads every integration's key on each call).
  *keys(): MapIterator<K> {
    yield* this.base.keys()
    for (const key of this.layer.keys()) if (!this.base.has(key)) yield key
  }

  *values(): MapIterator<V> {
    for (const [key, value] of this.base) yield this.layer.has(key) ? (this.layer.get(key) as V) : value
    for (const [key, value] of this.layer) if (!this.base.has(key)) yield value
  }

  [Symbol.iterator](): MapIterator<[K, V]> {
    return this.entries()
  }

  forEach(callback: (value: V, key: K, map: ReadonlyMap<K, V>) => void, thisArg?: unknown): void {
    for (const [key, value] of this.entries()) callback.call(thisArg, value, key, this)
  }
}

/**
 * `map` with the changes applied: puts over it in a LayeredMap, or, when some are deletes (rare:
 * a subscriber removed), a plain copy without them. A record deleted and put again comes last.
 */
export function changed<V>(map: ReadonlyMap<string, V>, changes: ReadonlyMap<string, V | null>): ReadonlyMap<string, V> {
  const puts = new Map<string, V>()
  const deleted = new Set<string>()
  for (const [id, record] of changes) {
    if (record === null) deleted.add(id)
    else puts.set(id, record)
  }
  if (deleted.size === 0) return LayeredMap.with(map, puts)
  const copy = new Map(map)
  for (const id of deleted) copy.delete(id)
  for (const [id, record] of puts) copy.set(id, record)
  return copy
}
