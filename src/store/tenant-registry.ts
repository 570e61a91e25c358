import { TenantLimitReached } from './store.ts'

interface TenantEntry {
  written: boolean
  pinned: boolean
  /** Calls of the API this tenant answered since the server started. */
  calls: number
}

/** A held tenant as the registry knows it. */
export interface RegistryEntry {
  readonly tenant: string
  readonly written: boolean
  readonly pinned: boolean
  readonly calls: number
}

/**
 * Which tenants exist, least recently used first. At the bound, the oldest tenant that was never
 * written to (and is not pinned) makes room: it comes back identical from its seed.
 */
export class TenantRegistry {
  private readonly entries = new Map<string, TenantEntry>()

  constructor(private readonly maxTenants: number) {}

  /**
   * Marks `tenant` used, and counts a call of the API when `call`. Returns the tenant dropped to
   * make room, if any; throws at a full bound.
   */
  admit(tenant: string, call: boolean): { created: boolean; evicted?: string } {
    const entry = this.entries.get(tenant)
    if (entry) {
      this.entries.delete(tenant)
      this.entries.set(tenant, entry)
      if (call) entry.calls++
      return { created: false }
    }
    const evicted = this.entries.size >= this.maxTenants ? this.evictOne() : undefined
    this.entries.set(tenant, { written: false, pinned: false, calls: call ? 1 : 0 })
    return evicted === undefined ? { created: true } : { created: true, evicted }
  }

  /** Re-admits a tenant read back from a file, past the bound if need be: it holds writes. */
  restore(tenant: string, entry: Omit<TenantEntry, 'calls'>): void {
    this.entries.set(tenant, { ...entry, calls: 0 })
  }

  has(tenant: string): boolean {
    return this.entries.has(tenant)
  }

  markWritten(tenant: string): void {
    const entry = this.entries.get(tenant)
    if (entry) entry.written = true
  }

  pin(tenant: string): void {
    const entry = this.entries.get(tenant)
    if (entry) entry.pinned = true
  }

  /** Forgets a tenant whose creation could not be stored. */
  remove(tenant: string): void {
    this.entries.delete(tenant)
  }

  keys(): IterableIterator<string> {
    return this.entries.keys()
  }

  /** Every held tenant, most recently used first. */
  list(): RegistryEntry[] {
    return [...this.entries].reverse().map(([tenant, { written, pinned, calls }]) => ({ tenant, written, pinned, calls }))
  }

  private evictOne(): string {
    for (const [tenant, entry] of this.entries) {
      if (entry.written || entry.pinned) continue
      this.entries.delete(tenant)
      return tenant
    }
    throw new TenantLimitReached(this.maxTenants)
  }
}
