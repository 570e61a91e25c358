import { overlaid, putOver } from './overlay.ts'
import { readBatches } from './read-batches.ts'
import { reached } from './redis-connection.ts'
import type { Change, SharedBackend } from './store-backend.ts'
import { StoreWriteFailed, TenantLimitReached, type KeyRecord } from './store.ts'
import type { TenantMemory } from './tenant-memory.ts'

/** Conflicts one change may meet (other processes writing the tenant) before it is given up as failed. */
const MAX_TRIES = 1000

/** Another process changed the tenant first: the change is made again over the tenant as it now stands. */
export class VersionConflict extends Error {}

/** Runs a task after every earlier task of the tenant has settled. */
export type Serialized = <T>(tenant: string, task: () => Promise<T>) => Promise<T>

/**
 * The tenants of a backend several processes share (SharedBackend), memory being a cache of the
 * ones this process serves: before each use of a tenant, what other processes changed is
 * replayed (one round trip); each change is written over the version held, and made again over
 * the tenant as it then stands when another process wrote first, so that no client ever sees the
 * conflict (docs/decisions.md).
 */
export function sharedTenants(remote: SharedBackend, memory: TenantMemory, serialized: Serialized, maxTenants: number) {
  /** The version of each tenant held in memory. */
  const versions = new Map<string, number>()
  const { registry } = memory

  /** Writes a tenant's change over the version held, with the idempotency record of the call that made it, if any. */
  const write = async (change: Change, record?: KeyRecord): Promise<void> => {
    if (change.type === 'keyRecord') return
    const answer = await remote.writeAt(change.tenant, versions.get(change.tenant) ?? 0, change, record)
    if (answer === 'conflict') throw new VersionConflict()
    versions.set(change.tenant, answer)
  }

  /** A held tenant brought up to the shared backend's version: what others changed replayed, or the tenant read again. */
  const sync = async (tenant: string): Promise<void> => {
    const update = await reached(remote.since(tenant, versions.get(tenant) ?? -1))
    if ('changes' in update) {
      for (const change of update.changes) await replay(tenant, change)
    } else {
      const { seed, data, snapshots } = await memory.madeOf(update.tenant)
      if (update.tenant?.seed) memory.seedSpecs.set(tenant, update.tenant.seed)
      else memory.seedSpecs.delete(tenant)
      memory.db.data.seeds.set(tenant, seed)
      memory.db.data.tenants.set(tenant, data)
      memory.db.data.snapshots.set(tenant, snapshots)
      if (update.tenant) registry.markWritten(tenant)
      if (update.tenant?.seed || snapshots.size > 0) registry.pin(tenant)
    }
    versions.set(tenant, update.version)
  }

  /** Applies to memory a change another process stored. */
  const replay = async (tenant: string, change: Change): Promise<void> => {
    switch (change.type) {
      case 'put':
        return memory.apply(tenant, putOver(memory.dataOf(tenant), change.rows))
      case 'replace':
        return memory.apply(tenant, overlaid(await memory.seedOf(tenant), change.rows))
      case 'createTenant':
        memory.seedSpecs.set(tenant, change.seed)
        memory.db.data.seeds.delete(tenant)
        memory.set(tenant, await memory.seedOf(tenant))
        return registry.pin(tenant)
      case 'saveSnapshot':
        return memory.keepSnapshot(tenant, change.name, { data: memory.dataOf(tenant), createdAt: change.createdAt })
      case 'restoreSnapshot': {
        const snapshot = memory.snapshotsHeld(tenant)?.get(change.name)
        return snapshot && memory.apply(tenant, snapshot.data)
      }
      case 'deleteSnapshot':
        return void memory.snapshotsHeld(tenant)?.delete(change.name)
      case 'keyRecord':
        return
    }
  }

  /**
   * A change over the tenant as this process holds it, with no round trip first: a write is
   * stored only if the tenant has not moved on (else it is read again and the change made again);
   * an attempt that wrote nothing holds once a sync finds the tenant where it was.
   */
  const attempt = async <T>(tenant: string, change: () => Promise<T>): Promise<T> => {
    let behind = !versions.has(tenant)
    for (let tries = 1; tries <= MAX_TRIES; tries++) {
      if (behind) await sync(tenant)
      const before = versions.get(tenant)
      try {
        const result = await change()
        if (versions.get(tenant) !== before) return result
        await sync(tenant)
        if (versions.get(tenant) === before) return result
        behind = false
      } catch (error) {
        if (!(error instanceof VersionConflict)) throw error
        behind = true
      }
    }
    throw new StoreWriteFailed(new Error(`${MAX_TRIES} conflicting writes of one tenant in a row`))
  }

  /** A tenant new to this process: within the bound over every process, and read from there. */
  const enter = async (tenant: string): Promise<void> => {
    try {
      if (!(await reached(remote.admits(tenant)))) throw new TenantLimitReached(maxTenants)
      await serialized(tenant, () => sync(tenant))
    } catch (error) {
      registry.remove(tenant)
      throw error
    }
  }

  /** A tenant this process does not hold, as the shared backend has it, left unheld. */
  const peek = async (tenant: string) => {
    const update = await reached(remote.since(tenant, -1))
    return memory.madeOf('tenant' in update ? update.tenant : undefined)
  }

  /** Whether any process stored something of the tenant. */
  const hasState = async (tenant: string): Promise<boolean> => (await reached(remote.since(tenant, -1))).version > 0

  return {
    write,
    sync,
    attempt,
    enter,
    peek,
    hasState,
    /** Reads of a held tenant, each after a sync; the reads waiting for one share it. */
    read: readBatches(serialized, sync),
    /** Every tenant with state, over every process. */
    tenants: () => remote.tenants(),
    /** Forgets the version of a tenant dropped, or whose first change failed. */
    forget: (tenant: string) => void versions.delete(tenant),
  }
}

export type SharedTenants = ReturnType<typeof sharedTenants>
