/** Places a tenant's records start with: a tenant that sends a few keys holds a few. */
const FIRST_LENGTH = 8
const FREE = 0

/** What one record costs beyond its strings: its row, its strings' places and its table slot. */
const RECORD_OVERHEAD_BYTES = 100

/**
 * A record's numbers, one row of 32 bytes (two rows to a cache line): ID and EXPIRES_AT are Float64
 * places 0 and 1 of the row, STATUS, SIZE and HASH Int32 places 4 to 6 of the same bytes.
 */
const ROW_F64 = 4
const ROW_I32 = 8
const ID = 0
const EXPIRES_AT = 1
const STATUS = 4
const SIZE = 5
const HASH = 6
/** A record's strings, side by side in one array. */
const TEXTS = 5
const KEY = 0
const METHOD = 1
const PATH = 2
const BODY = 3
const ANSWER = 4

/** Bytes held over every tenant's records: each tenant's records count theirs into it. */
export interface ByteCount {
  bytes: number
}

/**
 * One tenant's idempotency records, the last `capacity` keys it sent, oldest dropped first. A
 * record is known by its id, the number of keys the tenant sent before it plus one; it lives at
 * place `id & mask`: a row of numbers (id, expiry, status, size, key hash) in one typed array and
 * its strings side by side in one array, so a record adds no object to the heap and a call
 * touches a cache line or two of each. Every record outlives several collections of the young
 * generation, so an object per record was copied and then promoted on every keyed call; and a
 * column per field cost a cache line per field (docs/decisions.md, 2026-11-24). The strings
 * kept are the ones the call made anyway (its key, path and answer are also in the journal).
 *
 * A key is found through its 32-bit hash in a linear-probing table of (place, hash) pairs, so
 * telling that a key is not held (the usual case: the official SDK sends a fresh key on every
 * call) compares numbers in the table alone. A record removed before its turn leaves a hole;
 * holes count towards the places (the capacity rounded up to a power of two), not the capacity.
 */
export class KeyRecords {
  private readonly mask: number
  /** The id the next record gets, and the oldest id that may still be held; held ids lie between. */
  private next = 1
  private oldest = 1
  private held = 0
  /** Per place, one row: ID and EXPIRES_AT in `f64`, STATUS, SIZE and HASH in `i32`, over the same bytes. */
  private f64: Float64Array
  private i32: Int32Array
  private readonly texts: (string | undefined)[] = []
  /** Per table slot, a pair: a place plus one (or FREE), and its key's hash. */
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
    this.f64 = new Float64Array(length * ROW_F64)
    this.i32 = new Int32Array(this.f64.buffer)
    this.slots = new Int32Array(length * 4)
    this.slotMask = length * 2 - 1
  }

  get size(): number {
    return this.held
  }

  /** The id of the record held for `key`, or 0. */
  find(key: string): number {
    const hash = hashOf(key)
    const { slots, slotMask, texts } = this
    for (let slot = hash & slotMask; ; slot = (slot + 1) & slotMask) {
      const entry = slots[slot * 2]!
      if (entry === FREE) break
      if (slots[slot * 2 + 1] === hash && texts[(entry - 1) * TEXTS + KEY] === key) return this.f64[(entry - 1) * ROW_F64 + ID]!
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
    if (place * ROW_F64 === this.f64.length) this.grow()
    const size = RECORD_OVERHEAD_BYTES + key.length + path.length + body.length
    const hash = key === this.missed ? this.missedHash : hashOf(key)
    this.f64[place * ROW_F64 + ID] = id
    this.f64[place * ROW_F64 + EXPIRES_AT] = expiresAt
    this.i32[place * ROW_I32 + STATUS] = 0
    this.i32[place * ROW_I32 + SIZE] = size
    this.i32[place * ROW_I32 + HASH] = hash
    this.putTexts(place, key, method, path, body)
    this.held++
    this.count.bytes += size
    this.link(place, hash)
    return id
  }

  /** Whether record `id` is held and has no answer yet: false once it is answered, removed or dropped. */
  isOpen(id: number): boolean {
    return this.holds(id) && this.i32[(id & this.mask) * ROW_I32 + STATUS] === 0
  }

  matches(id: number, method: string, path: string, body: string): boolean {
    const at = (id & this.mask) * TEXTS
    return this.texts[at + METHOD] === method && this.texts[at + PATH] === path && this.texts[at + BODY] === body
  }

  expiresAt(id: number): number {
    return this.f64[(id & this.mask) * ROW_F64 + EXPIRES_AT]!
  }

  /** The answer's status, 0 while the call runs. */
  status(id: number): number {
    return this.i32[(id & this.mask) * ROW_I32 + STATUS]!
  }

  /** The answer's body as JSON. */
  answer(id: number): string {
    return this.texts[(id & this.mask) * TEXTS + ANSWER] ?? ''
  }

  /** Everything record `id` holds, to be stored: its answer's status is 0 while the call runs. */
  recordOf(id: number): { key: string; method: string; path: string; print: string; status: number; answer: string; expiresAt: number } {
    const at = (id & this.mask) * TEXTS
    const text = (index: number) => this.texts[at + index] ?? ''
    return { key: text(KEY), method: text(METHOD), path: text(PATH), print: text(BODY), status: this.status(id), answer: text(ANSWER), expiresAt: this.expiresAt(id) }
  }

  /** Keeps the answer of an open record (see isOpen). */
  answered(id: number, status: number, json: string): void {
    const place = id & this.mask
    this.i32[place * ROW_I32 + STATUS] = status
    this.i32[place * ROW_I32 + SIZE]! += json.length
    this.texts[place * TEXTS + ANSWER] = json
    this.count.bytes += json.length
  }

  /** Every record held now expires at `expiresAt`. */
  restamp(expiresAt: number): void {
    for (let id = this.oldest; id < this.next; id++) if (this.holds(id)) this.f64[(id & this.mask) * ROW_F64 + EXPIRES_AT] = expiresAt
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

  /** A place's strings, with no answer yet: a record's when it opens, none when it is emptied. */
  private putTexts(place: number, key: string | undefined, method: string | undefined, path: string | undefined, body: string | undefined): void {
    const at = place * TEXTS
    this.texts[at + KEY] = key
    this.texts[at + METHOD] = method
    this.texts[at + PATH] = path
    this.texts[at + BODY] = body
    this.texts[at + ANSWER] = undefined
  }

  /** Ids start at 1: a place never used holds 0. */
  private holds(id: number): boolean {
    return id !== 0 && this.f64[(id & this.mask) * ROW_F64 + ID] === id
  }

  /** Empties a place; the oldest id moves past the places emptied at the old end. */
  private clear(place: number): void {
    this.count.bytes -= this.i32[place * ROW_I32 + SIZE]!
    this.f64[place * ROW_F64 + ID] = 0
    this.putTexts(place, undefined, undefined, undefined, undefined)
    this.held--
    while (this.oldest < this.next && !this.holds(this.oldest)) this.oldest++
  }

  /** Doubles the rows (places keep their numbers: the ids held so far are all below the old length) and the table. */
  private grow(): void {
    const length = (this.f64.length / ROW_F64) * 2
    const f64 = new Float64Array(length * ROW_F64)
    f64.set(this.f64)
    this.f64 = f64
    this.i32 = new Int32Array(f64.buffer)
    this.slots = new Int32Array(length * 4)
    this.slotMask = length * 2 - 1
    for (let id = this.oldest; id < this.next - 1; id++) {
      const place = id & this.mask
      if (this.holds(id)) this.link(place, this.i32[place * ROW_I32 + HASH]!)
    }
  }

  /** Puts a place in the table, at the first free slot from its hash's. */
  private link(place: number, hash: number): void {
    let slot = hash & this.slotMask
    while (this.slots[slot * 2] !== FREE) slot = (slot + 1) & this.slotMask
    this.slots[slot * 2] = place + 1
    this.slots[slot * 2 + 1] = hash
  }

  /** Takes a place out of the table, moving back the entries after it that would no longer be found (linear probing's deletion). */
  private unlink(place: number): void {
    const { slots, slotMask } = this
    let slot = this.i32[place * ROW_I32 + HASH]! & slotMask
    while (slots[slot * 2] !== place + 1) slot = (slot + 1) & slotMask
    for (let next = (slot + 1) & slotMask; slots[next * 2] !== FREE; next = (next + 1) & slotMask) {
      const home = slots[next * 2 + 1]! & slotMask
      // The entry at `next` may move to `slot` unless its home lies cyclically within (slot, next].
      const stays = slot <= next ? slot < home && home <= next : slot < home || home <= next
      if (stays) continue
      slots[slot * 2] = slots[next * 2]!
      slots[slot * 2 + 1] = slots[next * 2 + 1]!
      slot = next
    }
    slots[slot * 2] = FREE
  }
}

/** FNV-1a over the UTF-16 code units. */
function hashOf(key: string): number {
  let hash = 0x811c9dc5 | 0
  for (let i = 0; i < key.length; i++) hash = Math.imul(hash ^ key.charCodeAt(i), 0x01000193)
  return hash
}
