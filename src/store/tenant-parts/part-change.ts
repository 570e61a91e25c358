import type { Change } from '../store-backend.ts'
import type { TenantMemory } from '../memory/tenant-memory.ts'
import type { Serialized, TenantSource } from '../memory/tenant-source.ts'

/** What the store hands the methods of each part of a tenant's value beside its records (its clock, idempotency records, fault rules). */
export interface PartParts {
  memory: TenantMemory
  source: TenantSource
  /** Whether several processes share the tenants (Redis): then a part is read after a sync, and changed over the version held. */
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
  ({ shared, serialized, holdForChange, changing }: Pick<PartParts, 'shared' | 'serialized' | 'holdForChange' | 'changing'>) =>
  async (tenant: string, change: () => Promise<void>): Promise<void> => {
    if (!shared) return serialized(tenant, change)
    await holdForChange(tenant)
    await changing(tenant, change)
  }
