import type { Change } from '../store-backend.ts'
import type { SnapshotsPort } from '../store.ts'
import { infoOf, type Snapshot, type TenantMemory } from '../memory/tenant-memory.ts'
import type { TenantData } from '../memory/tenant-data.ts'

/** What the snapshot methods take from the store they belong to (lowdb-store.ts). */
export interface SnapshotParts {
  memory: TenantMemory
  registry: TenantMemory['registry']
  /** A tenant the store does not hold, as its backend has it; absent without a backend. */
  stored: ((tenant: string) => Promise<{ data: TenantData; snapshots?: ReadonlyMap<string, Snapshot> | undefined }>) | undefined
  serialized: <T>(tenant: string, task: () => Promise<T>) => Promise<T>
  current: (tenant: string) => Promise<void> | undefined
  holdForChange: (tenant: string) => Promise<void> | undefined
  changing: <T>(tenant: string, attempt: () => Promise<T>) => Promise<T>
  persist: (change: Change) => Promise<void>
  /** Room in the memory budget for `bytes` more held for the tenant (MemoryPort's makeRoom). */
  room: (tenant: string, bytes: number, what: string) => void
}

/** A tenant's named snapshots over the store's memory: each change stored first, then applied (docs/behaviour.md §6). */
export function snapshotMethods({ memory, registry, stored, serialized, current, holdForChange, changing, persist, room }: SnapshotParts): SnapshotsPort {
  /** The tenant's snapshots as they stand, without making an empty list for a tenant that has none. */
  const snapshotsNow = async (tenant: string): Promise<ReadonlyMap<string, Snapshot> | undefined> => {
    if (!registry.has(tenant)) return stored ? (await stored(tenant)).snapshots : undefined
    await serialized(tenant, async () => current(tenant))
    return memory.snapshotsHeld(tenant)
  }
  const snapshotOf = async (tenant: string, name: string) => (await snapshotsNow(tenant))?.get(name)

  /** Restores or deletes the named snapshot: stored first, then applied to memory; undefined when there is none. */
  const changeSnapshot = async (tenant: string, name: string, type: 'restoreSnapshot' | 'deleteSnapshot', apply: (snapshot: Snapshot) => void) => {
    if (!(await snapshotOf(tenant, name))) return undefined
    await holdForChange(tenant)
    return changing(tenant, async () => {
      const snapshot = memory.snapshotsHeld(tenant)?.get(name)
      if (!snapshot) return undefined
      await persist({ type, tenant, name })
      apply(snapshot)
      return infoOf(name, snapshot)
    })
  }

  return {
    async saveSnapshot(tenant, name, at) {
      await holdForChange(tenant)
      return changing(tenant, async () => {
        const snapshot = { data: memory.dataOf(tenant), createdAt: at.toISOString() }
        // Nothing while it shares the tenant's records; what it keeps of them once they change counts then.
        room(tenant, memory.growthIf(tenant, { snapshot: [name, snapshot.data] }), 'Snapshot')
        await persist({ type: 'saveSnapshot', tenant, name, createdAt: snapshot.createdAt })
        memory.keepSnapshot(tenant, name, snapshot)
        return infoOf(name, snapshot)
      })
    },

    async listSnapshots(tenant) {
      return [...((await snapshotsNow(tenant)) ?? [])].map(([name, snapshot]) => infoOf(name, snapshot))
    },

    restoreSnapshot: (tenant, name) =>
      // A tenant holding snapshots is pinned, so held; with a shared backend, held once restored.
      changeSnapshot(tenant, name, 'restoreSnapshot', (snapshot) => memory.apply(tenant, snapshot.data)),

    deleteSnapshot: (tenant, name) => changeSnapshot(tenant, name, 'deleteSnapshot', () => memory.dropSnapshot(tenant, name)),
  }
}
