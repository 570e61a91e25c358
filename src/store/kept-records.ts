import type { Change, SavedStore } from './store-backend.ts'
import type { DurableClocks } from '../clock/tenant-clocks.ts'
import type { KeyRecordsPort } from './store.ts'

/**
 * What the policies make durable through the store (finished idempotency records, the tenants'
 * clocks), and what an earlier run kept of them, handed over once at the start.
 */
export function keptRecords(persist: (change: Change) => Promise<void>, saved: SavedStore): KeyRecordsPort & DurableClocks {
  let savedKeyRecords = saved.keyRecords
  return {
    keepKeyRecord: (tenant, record, keep) => persist({ type: 'keyRecord', tenant, record, keep }),
    keepClock: (tenant, clock) => persist({ type: 'clock', tenant, clock }),
    savedClocks: () => saved.clocks ?? [],
    savedKeyRecords() {
      const records = savedKeyRecords
      savedKeyRecords = []
      return records
    },
  }
}
