/**
 * Values by key, oldest first to drop. A Map alone would do, but dropping its oldest key again and
 * again leaves deleted slots at the front of V8's table that every walk from the start skips (up to
 * the table's size per call, until it is rebuilt); here the order is an array read from `head`.
 */
export class KeyedFifo<V> {
  private readonly byKey = new Map<string, V>()
  /** Oldest first, from `head`. A key whose value was removed or replaced since is skipped when reached. */
  private order: { key: string; value: V }[] = []
  private head = 0

  get size(): number {
    return this.byKey.size
  }

  get(key: string): V | undefined {
    return this.byKey.get(key)
  }

  /** Adds `value` as the newest; a key already present is replaced (and becomes the newest). */
  add(key: string, value: V): void {
    this.byKey.set(key, value)
    this.order.push({ key, value })
  }

  delete(key: string): V | undefined {
    const value = this.byKey.get(key)
    if (value === undefined) return undefined
    this.byKey.delete(key)
    if (this.order.length > 2 * this.byKey.size + 32) this.compact()
    return value
  }

  /** The oldest key and its value, or undefined when empty. */
  oldest(): { key: string; value: V } | undefined {
    while (this.head < this.order.length) {
      const slot = this.order[this.head]!
      if (this.byKey.get(slot.key) === slot.value) return slot
      this.head++
    }
    return undefined
  }

  /** Keeps only the slots still current: the array stays within twice the keys, at a copy per key added or deleted. */
  private compact(): void {
    this.order = this.order.slice(this.head).filter((slot) => this.byKey.get(slot.key) === slot.value)
    this.head = 0
  }
}
