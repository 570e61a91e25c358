import { overlaidTenant } from './overlay.ts'
import type { Change, SavedStore, SavedTenant, StoreBackend } from '../store-backend.ts'
import type { KeyedWrite, RecordsPort } from '../store.ts'
import type { TenantMemory } from './tenant-memory.ts'
import type { TenantData } from './tenant-data.ts'
import type { KeptClock } from '../../clock/clock-setting.ts'
import type { TenantFaults } from '../tenant-parts/tenant-faults.ts'

/** Runs a task after every earlier task of the tenant has settled. */
export type Serialized = <T>(tenant: string, task: () => Promise<T>) => Promise<T>

/** What the store hands the source it is made over: its memory, what the backend kept, the tenants' turns. */
export interface SourceParts {
  memory: TenantMemory
  saved: SavedStore
  serialized: Serialized
  /** Whether no task of the tenant is in its turn or waiting for it. */
  idle: (tenant: string) => boolean
  /** The next seq of a row added after its seed's (store-backend.ts). */
  nextSeq: () => number
  /** Room in the memory budget for the tenant's records to become `next`; throws when there is none (MemoryBudgetExceeded). */
  room: (tenant: string, next: TenantData) => void
}

/**
 * Where the tenants held in memory come from and where their changes go: the local store's file,
 * or nothing (local-source.ts), or the backend several processes share (shared/shared-source.ts).
 * The store over the tenants in memory (lowdb-store.ts) is one and the same over either.
 */
export interface TenantSource {
  /** Whether a tenant let go of comes back as it was (from its store); in memory alone, it does not. */
  readonly durable: boolean
  /** Brings the records of a tenant just admitted (`created`: new to memory) into memory. */
  enter(tenant: string, created: boolean): Promise<void> | undefined
  /** Resolves once the held tenant's records are in memory; undefined when they are already. */
  loaded(tenant: string): Promise<void> | undefined
  /** The held tenant's records as they stand: loaded, and with a shared backend, up to its version there. */
  current(tenant: string): Promise<void> | undefined
  /** A change of a held tenant, in its turn; made again over the tenant as it stands when another process wrote first. */
  attempt<T>(tenant: string, change: () => Promise<T>): Promise<T>
  /**
   * Runs `work` on a held tenant's records as they stand, after its pending writes; `ofCall`: a
   * call's read, which a shared source serves with the sync sent when the call opened its tenant.
   */
  read<T>(tenant: string, work: () => T, ofCall?: boolean): Promise<T>
  transact: RecordsPort['transact']
  /** Stores a change (with the idempotency record of the call that made it, and one more change, if any); a failure is a StoreWriteFailed. */
  write(change: Change, keyed?: KeyedWrite, also?: Change): Promise<void>
  /** A tenant the store does not hold, as its backend has it, left unheld; absent when there is nothing to read it from. */
  peek: ((tenant: string) => ReturnType<TenantMemory['madeOf']>) | undefined
  /** A shared backend's: the clock of a tenant the store does not hold, as stored there. */
  storedClock?: (tenant: string) => Promise<KeptClock | undefined>
  /** A shared backend's: the fault rules of a tenant the store does not hold, as stored there. */
  storedFaults?: (tenant: string) => Promise<TenantFaults | undefined>
  /** Whether something of a tenant the store does not hold is stored (a released one, or another process's). */
  isStored(tenant: string): Promise<boolean>
  /** Whether another process stored something of the tenant already. */
  takenElsewhere(tenant: string): Promise<boolean>
  /** The tenants with state that other processes stored, and whether each was created with a seed of its own. */
  elsewhere(): Promise<{ tenant: string; created: boolean }[]>
  /** Forgets what it keeps of a tenant let go of (`deleted`: the store forgot it too). */
  forget(tenant: string, deleted: boolean): void
  /** Deletes everything stored of tenants a reset of all left with nothing to keep. */
  dropTenants(tenants: readonly string[]): Promise<void>
}

/**
 * Brings a held tenant's records into memory: from what an earlier run stored (read at the start),
 * or, for a tenant released since, read again from the backend (docs/behaviour.md §3); from its
 * seed when nothing is stored. Concurrent callers share one load.
 */
export function tenantLoader(memory: TenantMemory, backend: StoreBackend | undefined, saved: SavedStore) {
  /** Tenants of an earlier run not yet made again in memory. */
  const unread = new Map<string, SavedTenant>(saved.tenants)
  for (const [tenant, entry] of saved.tenants) {
    memory.registry.restore(tenant, { written: true, created: entry.seed !== undefined })
    if (entry.seed) memory.seedSpecs.set(tenant, entry.seed)
  }
  const loading = new Map<string, Promise<void>>()

  /** Makes a stored tenant again: its seed, its rows over it, its snapshots. */
  const load = async (tenant: string): Promise<void> => {
    const entry = unread.get(tenant) ?? (await backend?.tenant?.(tenant))
    const seed = await memory.seedOf(tenant)
    if (memory.has(tenant)) return
    const { data, snapshots } = await overlaidTenant(seed, entry)
    if (memory.has(tenant)) return
    memory.set(tenant, data, snapshots.size > 0 ? snapshots : undefined)
    memory.keys.reload(tenant, entry?.keyRecords)
    unread.delete(tenant)
  }

  return {
    /** Resolves once the tenant's records are in memory; undefined when they are already. */
    loaded(tenant: string): Promise<void> | undefined {
      if (memory.has(tenant)) return undefined
      let pending = loading.get(tenant)
      if (!pending) {
        pending = load(tenant).finally(() => loading.delete(tenant))
        loading.set(tenant, pending)
      }
      return pending
    },
    /** The tenant is no longer stored (deleted): nothing of it is read at the start's copy. */
    forget: (tenant: string) => void unread.delete(tenant),
  }
}
