import { overlaid, putOver } from '../memory/overlay.ts'
import type { TenantMemory } from '../memory/tenant-memory.ts'
import type { Change } from '../store-backend.ts'

/** Applies to memory a change another process stored in the shared backend (shared-tenants.ts's sync). */
export async function replayChange(memory: TenantMemory, tenant: string, change: Change): Promise<void> {
  switch (change.type) {
    case 'put':
      return memory.apply(tenant, putOver(memory.dataOf(tenant), change.rows))
    case 'replace':
      return memory.apply(tenant, overlaid(await memory.seedOf(tenant), change.rows))
    case 'createTenant':
      memory.reseed(tenant, change.seed)
      memory.set(tenant, await memory.seedOf(tenant))
      return memory.registry.markCreated(tenant)
    case 'saveSnapshot':
      return memory.keepSnapshot(tenant, change.name, { data: memory.dataOf(tenant), createdAt: change.createdAt })
    case 'restoreSnapshot': {
      const snapshot = memory.snapshotsHeld(tenant)?.get(change.name)
      return snapshot && memory.apply(tenant, snapshot.data)
    }
    case 'deleteSnapshot':
      return memory.dropSnapshot(tenant, change.name)
    case 'clock':
      return memory.setClock(tenant, change.clock)
    case 'faultRules':
      return memory.faults.set(tenant, change.faults)
    case 'keyRecord':
      return memory.keys.keep(tenant, change.record, change.keep)
    case 'forgetKeyRecords':
      return memory.keys.forget(tenant)
    case 'restampKeyRecords':
      return memory.keys.restamp(tenant, change.expiresAt)
    case 'touch':
      return
  }
}
