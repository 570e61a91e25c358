import type { Store } from '../store/store.ts'
import { CapturingStore, type Collection, type ReadNotes } from './capturing-store.ts'

/**
 * Each record's JSON, kept while the record lives: a record is never changed in place, so its
 * text stays true, and the calls that read it unchanged (most reads, and a write's other
 * integrations) share one serialization.
 */
const texts = new WeakMap<object, string>()

function recordText(record: object): string {
  let text = texts.get(record)
  if (text === undefined) texts.set(record, (text = JSON.stringify(record)))
  return text
}

/**
 * The records a call's handler read, each as it was when first read: its provider state
 * (docs/behaviour.md §9). The handlers read every record before they replace it, so the first
 * reading is the record as it was before the call. Records are kept by reference: the store
 * replaces a record with a new object, never changes one in place, so the reference stays the
 * record as it was read; it is serialized once, when the call is journaled.
 */
export class ReadCapture implements ReadNotes {
  private readonly seen = new Map<Collection, Map<string, object>>()

  /** `store` as the call's handler sees it: every record its views answer is noted here. */
  over(store: Store): Store {
    return new CapturingStore(store, this)
  }

  /**
   * The records read, by collection, in the order first read, as JSON (`JSON.stringify` of them);
   * undefined when none was. Each record is serialized once, by whichever call reads it first.
   */
  json(): string | undefined {
    if (this.seen.size === 0) return undefined
    const parts: string[] = []
    for (const [collection, byId] of this.seen) parts.push(`"${collection}":[${[...byId.values()].map(recordText).join(',')}]`)
    return `{${parts.join(',')}}`
  }

  /** Notes a record as read (the first reading of its id is kept); answers it. */
  note<T extends object>(collection: Collection, id: string, record: T): T {
    let byId = this.seen.get(collection)
    if (!byId) this.seen.set(collection, (byId = new Map()))
    if (!byId.has(id)) byId.set(id, record)
    return record
  }

}
