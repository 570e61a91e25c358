import { HEAP_BYTES_PER_JSON_CHAR } from './held-bytes.ts'
import { ruleBytes, type TenantFaults } from '../tenant-parts/tenant-faults.ts'

/**
 * The tenants' fault rules held in this process (store/tenant-parts/fault-methods.ts), with their estimate for the
 * memory budget (docs/behaviour.md §3): each rule's JSON twice, as it was added. A call counted
 * against a rule changes its counters, not what it was counted for: the estimate is made again
 * only when the rules themselves change.
 */
export class HeldFaults {
  private readonly held = new Map<string, { faults: TenantFaults; bytes: number }>()
  /** The estimate over every tenant. */
  heldBytes = 0

  get(tenant: string): TenantFaults | undefined {
    return this.held.get(tenant)?.faults
  }

  bytesOf(tenant: string): number {
    return this.held.get(tenant)?.bytes ?? 0
  }

  /** The tenant's rules become `faults` (undefined: none, and ids count from 1 again). */
  set(tenant: string, faults: TenantFaults | undefined): void {
    const before = this.held.get(tenant)
    const bytes = faults === undefined ? 0 : before && sameRules(before.faults, faults) ? before.bytes : bytesOfRules(faults)
    this.heldBytes += bytes - (before?.bytes ?? 0)
    if (faults === undefined) this.held.delete(tenant)
    else this.held.set(tenant, { faults, bytes })
  }
}

const sameRules = (before: TenantFaults, after: TenantFaults): boolean =>
  before.rules.length === after.rules.length && before.rules.every((rule, i) => rule.id === after.rules[i]!.id)

const bytesOfRules = ({ rules }: TenantFaults): number => rules.reduce((sum, rule) => sum + ruleBytes(rule) * HEAP_BYTES_PER_JSON_CHAR, 0)
