import type { ProviderState } from '../../journal/journal-port.ts'
import { jsonLength } from '../../lib/json/json-length.ts'
import { measuredJsonLength } from '../../store/memory/held-bytes.ts'
import type { Store } from '../../store/store.ts'
import { CapturingStore, type Collection, type ReadNotes } from './capturing-store.ts'

/**
 * Each record's JSON and its length, kept while the record lives: a record is never changed in
 * place, so both stay true, and the calls that read it unchanged (most reads, and a write's other
 * integrations) share one serialization.
 */
const texts = new WeakMap<object, string>()
const lengths = new WeakMap<object, number>()

function recordText(record: object): string {
  let text = texts.get(record)
  if (text === undefined) texts.set(record, (text = JSON.stringify(record)))
  return text
}

/** A record's JSON length: the store measured each record a write put in memory; the rest (the seed's) measured here once. */
function recordLength(record: object): number {
  let length = texts.get(record)?.length ?? measuredJsonLength(record) ?? lengths.get(record)
  if (length === undefined) lengths.set(record, (length = jsonLength(record) ?? 0))
  return length
}

/** Past this many records read, a call's ids are looked up in a set rather than in its list. */
const SCANNED = 16

/**
 * The records a call's handler read, each as it was when first read: its provider state
 * (docs/behaviour.md §9). The handlers read every record before they replace it, so the first
 * reading is the record as it was before the call. Records are kept by reference: the store
 * replaces a record with a new object, never changes one in place, so the reference stays the
 * record as it was read. The journal keeps the capture itself and serializes it only when an entry
 * is shown with its state: a text made and kept on every call was most of a call's garbage. One
 * flat list of (collection, id, record) rather than maps, as it is kept per journaled call.
 */
export class ReadCapture implements ReadNotes, ProviderState {
  private readonly seen: (Collection | string | object)[] = []
  private index: Set<string> | undefined = undefined

  /** `store` as the call's handler sees it: every record its views answer is noted here. */
  over(store: Store): Store {
    return new CapturingStore(store, this)
  }

  /** This capture as the journal keeps it, or undefined when no record was read. */
  stated(): ProviderState | undefined {
    return this.seen.length === 0 ? undefined : this
  }

  /**
   * The records read, by collection (in the order each was first read), each in the order first
   * read: `JSON.stringify` of them. Each record is serialized once, by whichever call needs it first.
   */
  json(): string {
    const parts: string[] = []
    for (const collection of this.collections()) parts.push(`"${collection}":[${this.recordsOf(collection).map(recordText).join(',')}]`)
    return `{${parts.join(',')}}`
  }

  jsonLength(): number {
    const collections = this.collections()
    let length = 1 + collections.length
    for (const collection of collections) {
      const records = this.recordsOf(collection)
      length += collection.length + 5 + Math.max(0, records.length - 1)
      for (const record of records) length += recordLength(record)
    }
    return length
  }

  /** Notes a record as read (the first reading of its id is kept); answers it. */
  note<T extends object>(collection: Collection, id: string, record: T): T {
    if (!this.has(collection, id)) {
      this.seen.push(collection, id, record)
      this.index?.add(`${collection}/${id}`)
    }
    return record
  }

  private has(collection: Collection, id: string): boolean {
    const { seen } = this
    if (this.index === undefined && seen.length < 3 * SCANNED) {
      for (let i = 0; i < seen.length; i += 3) if (seen[i + 1] === id && seen[i] === collection) return true
      return false
    }
    if (this.index === undefined) {
      this.index = new Set()
      for (let i = 0; i < seen.length; i += 3) this.index.add(`${seen[i] as string}/${seen[i + 1] as string}`)
    }
    return this.index.has(`${collection}/${id}`)
  }

  private collections(): Collection[] {
    const collections: Collection[] = []
    for (let i = 0; i < this.seen.length; i += 3) if (!collections.includes(this.seen[i] as Collection)) collections.push(this.seen[i] as Collection)
    return collections
  }

  private recordsOf(collection: Collection): object[] {
    const records: object[] = []
    for (let i = 0; i < this.seen.length; i += 3) if (this.seen[i] === collection) records.push(this.seen[i + 2] as object)
    return records
  }
}
