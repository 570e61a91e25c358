import { TenantLimitReached } from './store.ts'

interface TenantEntry {
  written: boolean
  pinned: boolean
}

/**
 * Which tenants exist, least recently used first. At the bound, the oldest tenant that was never
 * written to (and is not pinned) makes room: it comes back identical from its seed.
 */
export class TenantRegistry {
  private readonly entries = new Map<string, TenantEntry>()

  constructor(private readonly maxTenants: number) {}

  /** Marks `tenant` used. Returns the tenant dropped to make room, if any; throws at a full bound. */
  admit(tenant: string): { created: boolean; evicted?: string } {
    const entry = this.entries.get(tenant)
    if (entry) {
      this.entries.delete(tenant)
      this.entries.set(tenant, entry)
      return { created: false }
    }
    const evicted = this.entries.size >= this.maxTenants ? this.evictOne() : undefined
    this.entries.set(tenant, { written: false, pinned: false })
    return evicted === undefined ? { created: true } : { created: true, evicted }
  }

  /** Re-admits a tenant read back from a file, past the bound if need be: it holds writes. */
  restore(tenant: string, entry: TenantEntry): void {
    this.entries.set(tenant, entry)
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

  private evictOne(): string {
    for (const [tenant, entry] of this.entries) {
      if (entry.written || entry.pinned) continue
      this.entries.delete(tenant)
      return tenant
    }
    throw new TenantLimitReached(this.maxTenants)
  }
}
