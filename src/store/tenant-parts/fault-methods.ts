import type { PartParts } from './part-change.ts'
import type { FaultsChange, FaultsPort, TenantFaults } from './tenant-faults.ts'

interface FaultParts extends PartParts {
  /** Whether no task of the tenant is in its turn or waiting for it. */
  idle: (tenant: string) => boolean
}

/** The tenants' fault rules as part of their values (FaultsPort), held in memory beside the records (memory/held-faults.ts). */
export function faultMethods({ memory, source, shared, serialized, idle, holdForChange, changing, persist }: FaultParts): FaultsPort {
  const { faults, registry } = memory

  /** In this process alone, nothing is stored: the change holds once made. */
  const changedHere = <T>(tenant: string, change: (held: TenantFaults | undefined) => FaultsChange<T>): T => {
    const { next, result } = change(faults.get(tenant))
    faults.set(tenant, next)
    return result
  }

  const changedShared = async <T>(tenant: string, change: (held: TenantFaults | undefined) => FaultsChange<T>): Promise<T> => {
    if (!registry.has(tenant)) {
      // Nothing to change (a reset of all clearing tenants it dropped): the tenant stays unheld, as a look leaves it.
      const stored = await source.storedFaults!(tenant)
      const unchanged = change(stored)
      if (unchanged.next === stored) return unchanged.result
    }
    // Over a shared backend a change is made over the version held: the tenant is held for it.
    await holdForChange(tenant)
    return changing(tenant, async () => {
      const held = faults.get(tenant)
      const { next, result } = change(held)
      if (next === held) return result
      await persist({ type: 'faultRules', tenant, faults: next })
      faults.set(tenant, next)
      return result
    })
  }

  return {
    faultRulesOf(tenant, ofCall = false) {
      if (!shared) return faults.get(tenant)
      if (registry.has(tenant)) return source.read(tenant, () => faults.get(tenant), ofCall)
      return source.storedFaults!(tenant)
    },
    changeFaultRules(tenant, change) {
      if (shared) return changedShared(tenant, change)
      // A tenant's other tasks keep their order: a change waits for the ones before it.
      return idle(tenant) ? changedHere(tenant, change) : serialized(tenant, async () => changedHere(tenant, change))
    },
  }
}
