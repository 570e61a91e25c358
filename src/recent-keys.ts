/** Slots the ring and its table start with: a tenant that sends a few keys holds a few slots. */
const FIRST_LENGTH = 8
const FREE = 0

/**
 * The last `capacity` values by string key: a key added once that many are held drops the oldest.
 * Keys are found through a 32-bit hash in a linear-probing table of integers, so telling that a
 * key is not held (the usual case: the official SDK sends a fresh idempotency key on every call)
 * compares numbers only, and reads none of the keys held. A Map of strings compared the new key
 * with each key in its bucket, strings spread over a heap that every call churns
 * (docs/decisions.md, 2026-11-24).
 *
 * The entries sit in a ring in the order they were added; a deleted one leaves a hole, skipped
 * when the ring moves on. Ring and table double as they fill, up to the capacity.
 */
export class RecentKeys<V> {
  /** The ring: entry i's key, value and hash; `oldest` is its first position, `used` counts from there, holes included. */
  private keys: (string | undefined)[]
  private values: (V | undefined)[]
  private hashes: Int32Array
  private oldest = 0
  private used = 0
  /** Per table slot: the ring position of the entry plus one, or FREE. */
  private slots: Int32Array
  private mask: number
  private held = 0
  /** The key the last `get` missed, and its hash: `add` usually follows with the same string. */
  private missed: string | undefined
  private missedHash = 0

  constructor(private readonly capacity: number) {
    const length = Math.max(1, Math.min(capacity, FIRST_LENGTH))
    this.keys = new Array<string | undefined>(length)
    this.values = new Array<V | undefined>(length)
    this.hashes = new Int32Array(length)
    this.slots = new Int32Array(tableLength(length))
    this.mask = this.slots.length - 1
  }

  get size(): number {
    return this.held
  }

  get(key: string): V | undefined {
    const hash = hashOf(key)
    const slot = this.slotOf(key, hash)
    if (slot >= 0) return this.values[this.slots[slot]! - 1]
    this.missed = key
    this.missedHash = hash
    return undefined
  }

  /** Adds a key not held (delete it first to replace it); answers the value dropped to make room, if one was. */
  add(key: string, value: V): V | undefined {
    let dropped: V | undefined
    if (this.used === this.keys.length) {
      if (this.keys.length < this.capacity) this.grow()
      else dropped = this.dropOldest()
    }
    const position = this.wrap(this.oldest + this.used)
    const hash = key === this.missed ? this.missedHash : hashOf(key)
    this.keys[position] = key
    this.values[position] = value
    this.hashes[position] = hash
    this.used++
    this.held++
    this.link(position)
    return dropped
  }

  delete(key: string): V | undefined {
    const slot = this.slotOf(key, hashOf(key))
    if (slot < 0) return undefined
    const position = this.slots[slot]! - 1
    const value = this.values[position]
    this.freeSlot(slot)
    this.clear(position)
    return value
  }

  /** Drops the oldest entry; answers its value. */
  dropOldest(): V | undefined {
    if (this.held === 0) return undefined
    // Holes at the ends are given back as they appear (see clear), so the oldest position holds an entry.
    const position = this.oldest
    const value = this.values[position]
    let slot = this.hashes[position]! & this.mask
    while (this.slots[slot] !== position + 1) slot = (slot + 1) & this.mask
    this.freeSlot(slot)
    this.clear(position)
    return value
  }

  /** The table slot of `key`, or -1. */
  private slotOf(key: string, hash: number): number {
    const { slots, mask, hashes, keys } = this
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const entry = slots[slot]!
      if (entry === FREE) return -1
      if (hashes[entry - 1] === hash && keys[entry - 1] === key) return slot
    }
  }

  /** Empties a ring position; holes at either end of the ring are given back. */
  private clear(position: number): void {
    this.keys[position] = undefined
    this.values[position] = undefined
    this.held--
    // Wrapped by a comparison, not `%`: this runs on every key added once the ring is full, and a division costs more.
    while (this.used > 0 && this.keys[this.oldest] === undefined) {
      this.oldest = this.wrap(this.oldest + 1)
      this.used--
    }
    while (this.used > 0 && this.keys[this.wrap(this.oldest + this.used - 1)] === undefined) this.used--
  }

  /** A position one lap past the ring's end, brought back into it. */
  private wrap(position: number): number {
    return position < this.keys.length ? position : position - this.keys.length
  }

  /** Frees a table slot, moving back the entries after it that would no longer be found (linear probing's deletion). */
  private freeSlot(slot: number): void {
    const { slots, mask, hashes } = this
    for (let next = (slot + 1) & mask; slots[next] !== FREE; next = (next + 1) & mask) {
      const home = hashes[slots[next]! - 1]! & mask
      // The entry at `next` may move to `slot` unless its home lies cyclically within (slot, next].
      const stays = slot <= next ? slot < home && home <= next : slot < home || home <= next
      if (stays) continue
      slots[slot] = slots[next]!
      slot = next
    }
    slots[slot] = FREE
  }

  /** Doubles the ring (up to the capacity) and its table, the entries (and holes) in order from position 0. */
  private grow(): void {
    const length = Math.min(this.capacity, this.keys.length * 2)
    const keys = new Array<string | undefined>(length)
    const values = new Array<V | undefined>(length)
    const hashes = new Int32Array(length)
    for (let i = 0; i < this.used; i++) {
      const from = (this.oldest + i) % this.keys.length
      keys[i] = this.keys[from]
      values[i] = this.values[from]
      hashes[i] = this.hashes[from]!
    }
    this.keys = keys
    this.values = values
    this.hashes = hashes
    this.oldest = 0
    this.slots = new Int32Array(tableLength(length))
    this.mask = this.slots.length - 1
    for (let position = 0; position < this.used; position++) if (keys[position] !== undefined) this.link(position)
  }

  /** Puts the entry at ring position `position` in the table, at the first free slot from its hash's. */
  private link(position: number): void {
    let slot = this.hashes[position]! & this.mask
    while (this.slots[slot] !== FREE) slot = (slot + 1) & this.mask
    this.slots[slot] = position + 1
  }
}

/** A power of two at least twice the ring's length: the table stays at most half full. */
function tableLength(ringLength: number): number {
  return 2 ** Math.ceil(Math.log2(ringLength * 2))
}

/** FNV-1a over the UTF-16 code units. */
function hashOf(key: string): number {
  let hash = 0x811c9dc5 | 0
  for (let i = 0; i < key.length; i++) hash = Math.imul(hash ^ key.charCodeAt(i), 0x01000193)
  return hash
}
