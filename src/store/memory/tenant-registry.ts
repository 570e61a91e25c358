import { TenantLimitReached } from '../store.ts'

interface TenantEntry {
  written: boolean
  /** Created through the admin API, with a seed of its own: released like the others (docs/behaviour.md §3). */
  created: boolean
  /** Calls of the API this tenant answered since the server started. */
  calls: number
  /** Calls of the API under way: a tenant with one is never released. */
  inFlight: number
}

/** A held tenant as the registry knows it. */
export interface RegistryEntry {
  readonly tenant: string
  readonly written: boolean
  readonly created: boolean
  readonly calls: number
}

/**
 * Which tenants are held in memory, least recently used first. At the bound, the least recently
 * used tenant with no call in flight is released, whether or not it wrote or was created through
 * the admin API (docs/behaviour.md §3): what it keeps is its store's affair.
 */
export class TenantRegistry {
  private readonly entries = new Map<string, TenantEntry>()
  /** Tenants released since the start. */
  released = 0

  constructor(private readonly maxTenants: number) {}

  /**
   * Marks `tenant` used, and counts a call of the API when `call`. Returns the tenant released to
   * make room, if any; throws when every held tenant has a call in flight.
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
    this.entries.set(tenant, { written: false, created: false, calls: call ? 1 : 0, inFlight: 0 })
    return evicted === undefined ? { created: true } : { created: true, evicted }
  }

  /** Re-admits a tenant read back from a file, past the bound if need be. */
  restore(tenant: string, entry: Pick<TenantEntry, 'written' | 'created'>): void {
    this.entries.set(tenant, { ...entry, calls: 0, inFlight: 0 })
  }

  has(tenant: string): boolean {
    return this.entries.has(tenant)
  }

  markWritten(tenant: string): void {
    const entry = this.entries.get(tenant)
    if (entry) entry.written = true
  }

  markCreated(tenant: string): void {
    const entry = this.entries.get(tenant)
    if (entry) entry.created = true
  }

  isCreated(tenant: string): boolean {
    return this.entries.get(tenant)?.created ?? false
  }

  /** The held tenants with no call in flight, least recently used first: the ones that may be released. */
  *releasable(): Generator<string> {
    for (const [tenant, entry] of [...this.entries]) if (entry.inFlight === 0 && this.entries.has(tenant)) yield tenant
  }

  /** Counts a release made to keep within the memory budget. */
  countRelease(): void {
    this.released++
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
    return [...this.entries].reverse().map(([tenant, { written, created, calls }]) => ({ tenant, written, created, calls }))
  }

  private evictOne(): string {
    for (const [tenant, entry] of this.entries) {
      if (entry.inFlight > 0) continue
      this.entries.delete(tenant)
      this.released++
      return tenant
    }
    throw new TenantLimitReached(this.maxTenants)
  }
}
