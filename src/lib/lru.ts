import { LRUCache } from 'lru-cache'

export interface LruOptions<V, K> {
  /** A longer string key's value is made every time, never kept: what clients send cannot grow the cache's memory. */
  longestKey?: number
  /** Told of every value that leaves the cache, dropped at `max` or deleted. */
  dispose?: (value: V, key: K) => void
}

/**
 * The one cache of the code: lru-cache, at most `max` values, the least recently used dropped
 * first. A hit costs a lookup and two index writes, as cheap as a `Map` that never reorders
 * (docs/decisions.md, 2026-11-28).
 */
export class Lru<V extends {}, K extends {} = string> extends LRUCache<K, V> {
  private readonly longestKey: number

  constructor(max: number, { longestKey = Infinity, dispose }: LruOptions<V, K> = {}) {
    super({ max, dispose })
    this.longestKey = longestKey
  }

  /** The key's value, made and kept when absent, as the most recently used. */
  remember(key: K, make: (key: K) => V): V {
    let value = this.get(key)
    if (value === undefined) {
      value = make(key)
      if (typeof key !== 'string' || key.length <= this.longestKey) this.set(key, value)
    }
    return value
  }

  /** Keys and values, the least recently used first; deleting while walking is not safe, so collect, then delete. */
  leastRecentFirst(): Generator<[K, V]> {
    // lru-cache yields [key, value] pairs but declares them `(K | V)[]`.
    return this.rentries() as Generator<[K, V]>
  }
}
