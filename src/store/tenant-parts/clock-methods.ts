import type { KeptClock } from '../../clock/clock-setting.ts'
import { partChange, type PartParts } from './part-change.ts'
import type { SavedStore } from '../store-backend.ts'
import type { ClocksPort } from '../store.ts'

interface ClockParts extends PartParts {
  /** What an earlier run stored: the --db file's clocks, taken into memory. */
  saved: SavedStore
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
