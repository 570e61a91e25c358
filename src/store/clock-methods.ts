import type { KeptClock } from '../clock/clock-setting.ts'
import type { Change, SavedStore } from './store-backend.ts'
import type { ClocksPort } from './store.ts'
import type { TenantMemory } from './memory/tenant-memory.ts'
import type { Serialized, TenantSource } from './memory/tenant-source.ts'

/** What the store hands the methods of one part of a tenant's value (its clock, its idempotency records). */
export interface ClockParts {
  memory: TenantMemory
  /** What an earlier run stored: the --db file's clocks, taken into memory. */
  saved: SavedStore
  source: TenantSource
  /** Whether several processes share the tenants (Redis): then a clock is read after a sync, and changed over the version held. */
  shared: boolean
  /** Runs a task of the tenant after its earlier ones. */
  serialized: Serialized
  /** Makes the tenant held and loaded, ready for a change. */
  holdForChange: (tenant: string) => Promise<void> | undefined
  /** A change of the tenant, after its earlier ones. */
  changing: <T>(tenant: string, attempt: () => Promise<T>) => Promise<T>
  persist: (change: Change) => Promise<void>
}

/**
 * A change of one part of a tenant's value, in the tenant's turn. In this process alone the part
 * needs not the tenant's records: a tenant not held stays so, as a look leaves it. Over a shared
 * backend a change is made over the version held: the tenant is held for it.
 */
export const partChange =
  ({ shared, serialized, holdForChange, changing }: Pick<ClockParts, 'shared' | 'serialized' | 'holdForChange' | 'changing'>) =>
  async (tenant: string, change: () => Promise<void>): Promise<void> => {
    if (!shared) return serialized(tenant, change)
    await holdForChange(tenant)
    await changing(tenant, change)
  }

/**
 * The tenants' clocks as part of their values (ClocksPort): held in memory beside the records,
 * changed in the tenant's turn as a `clock` change, which each backend stores as it stores the
 * tenant's other changes. In memory alone a clock goes with its tenant's release (lowdb-store.ts);
 * the --db file keeps every tenant's; Redis keeps it in the tenant's value, where the rate
 * limit's script reads it too.
 */
export function clockMethods(parts: ClockParts) {
  const { memory, saved, source, shared, persist } = parts
  const { clocks, registry } = memory
  const changed = partChange(parts)
  for (const [tenant, clock] of saved.clocks ?? []) memory.setClock(tenant, clock)

  const keepClock = (tenant: string, clock: KeptClock | undefined): Promise<void> =>
    changed(tenant, async () => {
      if (clock === undefined && !clocks.has(tenant)) return
      await persist({ type: 'clock', tenant, clock })
      memory.setClock(tenant, clock)
    })

  const port: ClocksPort = {
    clockOf(tenant, ofCall = false) {
      if (!shared) return clocks.get(tenant)
      if (registry.has(tenant)) return source.read(tenant, () => clocks.get(tenant), ofCall)
      return source.storedClock!(tenant)
    },
    keepClock,
    async clearClocks() {
      const elsewhere = shared ? (await source.elsewhere()).map(({ tenant }) => tenant) : []
      await Promise.all([...new Set([...clocks.keys(), ...elsewhere])].map((tenant) => keepClock(tenant, undefined)))
    },
    heldClocks: () => [...clocks],
  }

  /**
   * A released tenant's clock: in memory alone it goes with the tenant; with a shared backend it is
   * read again with it; a --db file keeps it, unless the tenant is deleted.
   */
  const release = (tenant: string, deleted: boolean): void => {
    const local = source.durable && !shared
    if (local && !deleted) return
    if (clocks.delete(tenant) && local) void persist({ type: 'clock', tenant, clock: undefined }).catch(() => undefined)
  }

  return { port, release }
}
