import type { TenantMemory } from '../memory/tenant-memory.ts'

export interface BudgetParts {
  memory: TenantMemory
  /** Bytes at most; infinite: no bound. */
  budget: number
  /** Whether no change of the tenant is under way. */
  idle(tenant: string): boolean
  /** Releases a tenant from memory. */
  release(tenant: string): void
}

/**
 * The instance's memory budget (docs/behaviour.md §3): what it holds for its tenants, and room made
 * for more by releasing the least recently used tenants that hold something counted, have no call
 * in flight and no change under way, never the one asking.
 */
export function memoryBudget({ memory, budget, idle, release }: BudgetParts) {
  // A tenant's fault rules and idempotency records are part of its value: counted with it, released with it.
  const used = (): number => memory.heldBytes + memory.faults.heldBytes + memory.keys.bytes
  const heldFor = (tenant: string): number => memory.bytesOf(tenant) + memory.faults.bytesOf(tenant) + memory.keys.bytesOf(tenant)

  /** Room for `bytes` more held for `tenant`; throws LargerThanBudget, or MemoryBudgetExceeded when no release makes room. */
  const makeRoom = (tenant: string, bytes: number, what: string): void => {
    if (bytes <= 0 || used() + bytes <= budget) return
    if (bytes > budget) throw new LargerThanBudget(what, bytes, budget)
    for (const other of memory.registry.releasable()) {
      if (other === tenant || !idle(other) || heldFor(other) === 0) continue
      release(other)
      memory.registry.countRelease()
      if (used() + bytes <= budget) return
    }
    throw new MemoryBudgetExceeded(budget)
  }

  return { memory: () => ({ budget, used: used() }), makeRoom }
}

/** Seed options of created tenants kept in memory alone, once released: the least recently used forgotten beyond (docs/behaviour.md §3). */
export const MAX_KEPT_SEEDS = 10_000

/** Beyond MAX_KEPT_SEEDS, forgets the seed options of the released tenants used least recently (`specs` in that order). */
export function forgetOldSeeds(specs: Map<string, unknown>, isHeld: (tenant: string) => boolean): void {
  if (specs.size <= MAX_KEPT_SEEDS) return
  for (const tenant of specs.keys()) {
    if (isHeld(tenant)) continue
    specs.delete(tenant)
    if (specs.size <= MAX_KEPT_SEEDS) return
  }
}

/** Used again: a tenant's kept seed options become the last to be forgotten. */
export function keepLast<V>(specs: Map<string, V>, tenant: string): void {
  const spec = specs.get(tenant)
  if (spec === undefined) return
  specs.delete(tenant)
  specs.set(tenant, spec)
}

/** Nothing more can be held: every tenant that could be released was, and `bytes` more would still pass the budget. */
export class MemoryBudgetExceeded extends Error {
  constructor(readonly budget: number) {
    super(`memory budget of ${budget} bytes reached and every other tenant held has a call in flight`)
    this.name = 'MemoryBudgetExceeded'
  }
}

/** One import, creation or snapshot that alone would pass the whole budget (413). */
export class LargerThanBudget extends Error {
  constructor(
    /** What it is, as the answer names it: `State`, `Tenant`, `Snapshot`. */
    readonly what: string,
    readonly bytes: number,
    readonly budget: number,
  ) {
    super(`${what} of about ${bytes} bytes is larger than the memory budget (${budget} bytes)`)
    this.name = 'LargerThanBudget'
  }
}

