import type { MaybePromise } from '../../lib/maybe-promise.ts'

type FaultRule = import('../../contract/generated/admin-types.ts').components['schemas']['FaultRule']

/**
 * A tenant's fault rules as its value holds them (docs/behaviour.md §6): oldest first, each with
 * its counters, and the number of the last rule added, so that a rule's id depends on its
 * tenant's calls alone (`fault-1`, docs/decisions.md).
 */
export interface TenantFaults {
  readonly lastId: number
  readonly rules: readonly FaultRule[]
}

/** A rule's size as its JSON lists it: what the bound of a tenant's rules counts, and the memory budget twice (HEAP_BYTES_PER_JSON_CHAR). */
export const ruleBytes = (rule: object): number => JSON.stringify(rule).length

/** What a change of a tenant's fault rules makes of them (`next`: the same object when nothing changed), and what it answers. */
export interface FaultsChange<T> {
  next: TenantFaults | undefined
  result: T
}

/**
 * The tenants' fault rules with their counters (docs/behaviour.md §6), part of each tenant's
 * value: changed in the tenant's turn as a `faultRules` change. With a shared backend (Redis) the
 * change is stored in the tenant's versioned value and replayed by every instance; otherwise they
 * are held in memory alone, --db included, and go with the tenant's release (§3).
 */
export interface FaultsPort {
  /**
   * The tenant's rules as they stand: at once when they are this process's alone; with a shared
   * backend, after a sync (`ofCall`: the one its call's opening sent), or read there for a tenant
   * not held.
   */
  faultRulesOf(tenant: string, ofCall?: boolean): MaybePromise<TenantFaults | undefined>
  /**
   * Runs `change` over the tenant's rules as they stand, in the tenant's turn, and stores its
   * `next` before it holds; over a shared backend, again over the rules as they then stand when
   * another process changed the tenant first. At once when the rules are this process's alone
   * and nothing of the tenant is under way.
   */
  changeFaultRules<T>(tenant: string, change: (faults: TenantFaults | undefined) => FaultsChange<T>): MaybePromise<T>
}
