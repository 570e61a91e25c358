import { partChange, type PartParts } from './part-change.ts'
import type { Change } from '../store-backend.ts'
import type { KeyRecordsPort } from '../store.ts'

interface KeyRecordParts extends PartParts {
  /** Whether changes are stored (a file or a shared backend); in memory alone they hold at once. */
  stored: boolean
}

/**
 * The tenants' finished idempotency records as part of their values (KeyRecordsPort): held in
 * memory beside the records (TenantKeyRecords), changed in the tenant's turn as changes that each
 * backend stores as it stores the tenant's other changes. In memory alone a change holds at once:
 * a keyed call costs no turn more than another.
 */
export function keyRecordMethods(parts: KeyRecordParts): KeyRecordsPort {
  const { memory, source, shared, stored, persist } = parts
  const { keys, registry } = memory
  const inTurn = partChange(parts)

  /** `apply`, once `change` is stored, in the tenant's turn. */
  const changed = (change: Change, apply: () => void): Promise<void> =>
    inTurn(change.tenant, async () => {
      await persist(change)
      apply()
    })

  return {
    keyRecordOf(tenant, key) {
      if (!shared || !registry.has(tenant)) return keys.find(tenant, key)
      return source.read(tenant, () => keys.find(tenant, key), true)
    },
    heldKeyRecord: (tenant, key) => keys.find(tenant, key),
    // In memory alone a change holds at once.
    keepKeyRecord: (tenant, record, keep) =>
      stored ? changed({ type: 'keyRecord', tenant, record, keep }, () => keys.keep(tenant, record, keep)) : keys.keep(tenant, record, keep),
    restampKeyRecords: (tenant, expiresAt) =>
      stored ? changed({ type: 'restampKeyRecords', tenant, expiresAt }, () => keys.restamp(tenant, expiresAt)) : keys.restamp(tenant, expiresAt),
  }
}
