/** Places the columns start with: a tenant that sends a few keys holds a few. */
const FIRST_LENGTH = 8
const FREE = 0

/** What one record costs beyond its strings: its place in each column and in the table. */
const RECORD_OVERHEAD_BYTES = 100

/** Bytes held over every tenant's records: each tenant's records count theirs into it. */
export interface ByteCount {
  bytes: number
}

/**
 * One tenant's idempotency records, the last `capacity` keys it sent, oldest dropped first. A
 * record is known by its id, the number of keys the tenant sent before it plus one; it lives at
 * place `id & mask` of columns of numbers and of strings, so a record adds no object to the heap.
 * Every record outlives several collections of the young generation, so an object per record was
 * copied and then promoted on every keyed call (docs/decisions.md, 2026-11-24). The strings kept
 * are the ones the call made anyway (its key, path and answer are also in the journal).
 *
 * A key is found through its 32-bit hash in a linear-probing table of places, so telling that a
 * key is not held (the usual case: the official SDK sends a fresh key on every call) compares
 * numbers only. A record removed before its turn leaves a hole; holes count towards the columns'
 * length (the capacity rounded up to a power of two), not towards the capacity.
 */
export class KeyRecords {
  private readonly mask: number
  /** The id the next record gets, and the oldest id that may still be held; held ids lie between. */
  private next = 1
  private oldest = 1
  private held = 0
  /** Per place: the id held there (0 for none), the key's hash, and the record's fields. */
  private ids: Float64Array
  private hashes: Int32Array
  private statuses: Int32Array
  private sizes: Int32Array
  private expiries: Float64Array
  private readonly keys: (string | undefined)[] = []
  private readonly methods: (string | undefined)[] = []
  private readonly paths: (string | undefined)[] = []
  private readonly bodies: (string | undefined)[] = []
  private readonly answers: (string | undefined)[] = []
  /** Per table slot: a place plus one, or FREE. */
  private slots: Int32Array
  private slotMask: number
  /** The key the last `find` missed, and its hash: `open` usually follows with the same string. */
  private missed: string | undefined
  private missedHash = 0

  constructor(
    private readonly capacity: number,
    private readonly count: ByteCount,
  ) {
    this.mask = 2 ** Math.ceil(Math.log2(Math.max(1, capacity))) - 1
    const length = Math.min(this.mask + 1, FIRST_LENGTH)
    this.ids = new Float64Array(length)
    this.hashes = new Int32Array(length)
    this.statuses = new Int32Array(length)
    this.sizes = new Int32Array(length)
    this.expiries = new Float64Array(length)
    this.slots = new Int32Array(length * 2)
    this.slotMask = this.slots.length - 1
  }

  get size(): number {
    return this.held
  }

  /** The id of the record held for `key`, or 0. */
  find(key: string): number {
    const hash = hashOf(key)
    const { slots, slotMask, hashes, keys, ids } = this
    for (let slot = hash & slotMask; ; slot = (slot + 1) & slotMask) {
      const entry = slots[slot]!
      if (entry === FREE) break
      if (hashes[entry - 1] === hash && keys[entry - 1] === key) return ids[entry - 1]!
    }
    this.missed = key
    this.missedHash = hash
    return 0
  }

  /** Opens a record, not yet answered, for a key not held (remove it first); answers its id. */
  open(key: string, method: string, path: string, body: string, expiresAt: number): number {
    while (this.held >= this.capacity || this.next - this.oldest > this.mask) this.dropOldest()
    const id = this.next++
    const place = id & this.mask
    if (place === this.ids.length) this.grow()
    const size = RECORD_OVERHEAD_BYTES + key.length + path.length + body.length
    this.ids[place] = id
    this.hashes[place] = key === this.missed ? this.missedHash : hashOf(key)
    this.statuses[place] = 0
    this.sizes[place] = size
    this.expiries[place] = expiresAt
    this.keys[place] = key
    this.methods[place] = method
    this.paths[place] = path
    this.bodies[place] = body
    this.answers[place] = undefined
    this.held++
    this.count.bytes += size
    this.link(place)
    return id
  }

  /** Whether record `id` is held and has no answer yet: false once it is answered, removed or dropped. */
  isOpen(id: number): boolean {
    return this.holds(id) && this.statuses[id & this.mask] === 0
  }

  matches(id: number, method: string, path: string, body: string): boolean {
    const place = id & this.mask
    return this.methods[place] === method && this.paths[place] === path && this.bodies[place] === body
  }

  expiresAt(id: number): number {
    return this.expiries[id & this.mask]!
  }

  /** The answer's status, 0 while the call runs. */
  status(id: number): number {
    return this.statuses[id & this.mask]!
  }

  /** The answer's body as JSON. */
  answer(id: number): string {
    return this.answers[id & this.mask] ?? ''
  }

  /** Keeps the answer of an open record (see isOpen). */
  answered(id: number, status: number, json: string): void {
    const place = id & this.mask
    this.statuses[place] = status
    this.answers[place] = json
    this.sizes[place]! += json.length
    this.count.bytes += json.length
  }

  /** Removes record `id` if it is held. */
  remove(id: number): void {
    if (!this.holds(id)) return
    const place = id & this.mask
    this.unlink(place)
    this.clear(place)
  }

  /** Drops the oldest record held but `except` (an id, or 0 for none). */
  dropOldest(except = 0): void {
    let id = this.oldest
    while (id < this.next && (id === except || !this.holds(id))) id++
    if (id < this.next) this.remove(id)
  }

  /** Ids start at 1: a place never used holds 0. */
  private holds(id: number): boolean {
    return id !== 0 && this.ids[id & this.mask] === id
  }

  /** Empties a place; the oldest id moves past the places emptied at the old end. */
  private clear(place: number): void {
    this.count.bytes -= this.sizes[place]!
    this.ids[place] = 0
    this.keys[place] = undefined
    this.methods[place] = undefined
    this.paths[place] = undefined
    this.bodies[place] = undefined
    this.answers[place] = undefined
    this.held--
    while (this.oldest < this.next && this.ids[this.oldest & this.mask] !== this.oldest) this.oldest++
  }

  /** Doubles the columns (places keep their numbers: the ids held so far are all below the old length) and the table. */
  private grow(): void {
    const length = this.ids.length * 2
    this.ids = grown(this.ids, new Float64Array(length))
    this.hashes = grown(this.hashes, new Int32Array(length))
    this.statuses = grown(this.statuses, new Int32Array(length))
    this.sizes = grown(this.sizes, new Int32Array(length))
    this.expiries = grown(this.expiries, new Float64Array(length))
    this.slots = new Int32Array(length * 2)
    this.slotMask = this.slots.length - 1
    for (let id = this.oldest; id < this.next - 1; id++) if (this.ids[id & this.mask] === id) this.link(id & this.mask)
  }

  /** Puts a place in the table, at the first free slot from its hash's. */
  private link(place: number): void {
    let slot = this.hashes[place]! & this.slotMask
    while (this.slots[slot] !== FREE) slot = (slot + 1) & this.slotMask
    this.slots[slot] = place + 1
  }

  /** Takes a place out of the table, moving back the entries after it that would no longer be found (linear probing's deletion). */
  private unlink(place: number): void {
    const { slots, slotMask, hashes } = this
    let slot = hashes[place]! & slotMask
    while (slots[slot] !== place + 1) slot = (slot + 1) & slotMask
    for (let next = (slot + 1) & slotMask; slots[next] !== FREE; next = (next + 1) & slotMask) {
      const home = hashes[slots[next]! - 1]! & slotMask
      // The entry at `next` may move to `slot` unless its home lies cyclically within (slot, next].
      const stays = slot <= next ? slot < home && home <= next : slot < home || home <= next
      if (stays) continue
      slots[slot] = slots[next]!
      slot = next
    }
    slots[slot] = FREE
  }
}

function grown<T extends Float64Array | Int32Array>(from: T, to: T): T {
  to.set(from)
  return to
}

/** FNV-1a over the UTF-16 code units. */
function hashOf(key: string): number {
  let hash = 0x811c9dc5 | 0
  for (let i = 0; i < key.length; i++) hash = Math.imul(hash ^ key.charCodeAt(i), 0x01000193)
  return hash
}
