import { overlaidTenant } from './overlay.ts'
import type { SavedStore, SavedTenant, StoreBackend } from '../store-backend.ts'
import type { TenantMemory } from './tenant-memory.ts'

/**
 * Brings a held tenant's records into memory: from what an earlier run stored (read at the start),
 * or, for a tenant released since, read again from the backend (docs/behaviour.md §3); from its
 * seed when nothing is stored. Concurrent callers share one load.
 */
export function tenantLoader(memory: TenantMemory, backend: StoreBackend | undefined, saved: SavedStore) {
  /** Tenants of an earlier run not yet made again in memory. */
  const unread = new Map<string, SavedTenant>(saved.tenants)
  for (const [tenant, entry] of saved.tenants) {
    memory.registry.restore(tenant, { written: true, pinned: entry.seed !== undefined })
    if (entry.seed) memory.seedSpecs.set(tenant, entry.seed)
  }
  const loading = new Map<string, Promise<void>>()

  /** Makes a stored tenant again: its seed, its rows over it, its snapshots. */
  const load = async (tenant: string): Promise<void> => {
    const entry = unread.get(tenant) ?? (await backend?.tenant?.(tenant))
    const seed = await memory.seedOf(tenant)
    if (memory.has(tenant)) return
    const { data, snapshots } = overlaidTenant(seed, entry)
    memory.set(tenant, data, snapshots.size > 0 ? snapshots : undefined)
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
