import type { Change, SavedStore } from './store-backend.ts'
import type { KeyRecordsPort } from './store.ts'

/**
 * What the idempotency policy makes durable through the store (finished records), and what an
 * earlier run kept of them, handed over once at the start.
 */
export function keptRecords(persist: (change: Change) => Promise<void>, saved: SavedStore): KeyRecordsPort {
  let savedKeyRecords = saved.keyRecords
  return {
    keepKeyRecord: (tenant, record, keep) => persist({ type: 'keyRecord', tenant, record, keep }),
    savedKeyRecords() {
      const records = savedKeyRecords
      savedKeyRecords = []
      return records
    },
  }
}
