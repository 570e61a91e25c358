/**
 * Values computed from what a client sent, remembered by it: at most `entries` keys, each at most
 * `longestKey` characters, so the memory is bounded whatever clients send (a longer key is
 * computed every time, never kept). Forgotten wholesale when full, then rebuilt from the traffic.
 */
export class ClientKeyedCache<V> {
  private readonly values = new Map<string, V>()

  constructor(
    private readonly entries: number,
    private readonly longestKey: number,
  ) {}

  get(key: string, make: (key: string) => V): V {
    let value = this.values.get(key)
    if (value === undefined) {
      value = make(key)
      if (key.length > this.longestKey) return value
      if (this.values.size >= this.entries) this.values.clear()
      this.values.set(key, value)
    }
    return value
  }
}
