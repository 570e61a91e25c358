import { TenantLimitReached } from '../store.ts'

interface TenantEntry {
  written: boolean
  /** Created through the admin API: never released (docs/behaviour.md §3). */
  pinned: boolean
  /** Calls of the API this tenant answered since the server started. */
  calls: number
  /** Calls of the API under way: a tenant with one is never released. */
  inFlight: number
}

/** A held tenant as the registry knows it. */
export interface RegistryEntry {
  readonly tenant: string
  readonly written: boolean
  readonly pinned: boolean
  readonly calls: number
}

/**
 * Which tenants are held in memory, least recently used first. At the bound, the least recently
 * used tenant with no call in flight that was not created on purpose is released, whether or not
 * it wrote (docs/behaviour.md §3): what it keeps is its store's affair.
 */
export class TenantRegistry {
  private readonly entries = new Map<string, TenantEntry>()
  /** Tenants released since the start. */
  released = 0

  constructor(private readonly maxTenants: number) {}

  /**
   * Marks `tenant` used, and counts a call of the API when `call`. Returns the tenant released to
   * make room, if any; throws when every held tenant has a call in flight or was created.
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
    this.entries.set(tenant, { written: false, pinned: false, calls: call ? 1 : 0, inFlight: 0 })
    return evicted === undefined ? { created: true } : { created: true, evicted }
  }

  /** Re-admits a tenant read back from a file, past the bound if need be. */
  restore(tenant: string, entry: Pick<TenantEntry, 'written' | 'pinned'>): void {
    this.entries.set(tenant, { ...entry, calls: 0, inFlight: 0 })
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

  isPinned(tenant: string): boolean {
    return this.entries.get(tenant)?.pinned ?? false
  }

  /** A call of the API began; the function answered ends it. */
  begin(tenant: string): () => void {
    const entry = this.entries.get(tenant)
    if (!entry) return () => undefined
    entry.inFlight++
    let ended = false
    return () => {
      if (ended) return
      ended = true
      entry.inFlight--
    }
  }

  /** Forgets a tenant (its creation could not be stored, or it is released on purpose). */
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
      if (entry.pinned || entry.inFlight > 0) continue
      this.entries.delete(tenant)
      this.released++
      return tenant
    }
    throw new TenantLimitReached(this.maxTenants)
  }
}
