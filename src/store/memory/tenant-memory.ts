import { Low, Memory } from 'lowdb'
import type { SavedTenant, TenantSeed } from '../store-backend.ts'
import type { SeedSpec, SnapshotInfo, TenantInfo } from '../store.ts'
import type { TenantState } from '../records.ts'
import { countsOf, tenantDataInSlices, type TenantData } from './tenant-data.ts'
import { TenantRegistry } from './tenant-registry.ts'
import { overlaidTenant } from './overlay.ts'

/** A tenant's records as they were at `createdAt`: a reference, since records never change. */
export interface Snapshot {
  data: TenantData
  createdAt: string
}

/** Everything the store keeps in memory, by API key: each tenant's records and its snapshots. */
export interface StoreData {
  tenants: Map<string, TenantData>
  snapshots: Map<string, Map<string, Snapshot>>
  /** Seeds of the tenants created with their own (the others start from the shared one), once made. */
  seeds: Map<string, TenantData>
}

/**
 * The tenants the store holds in memory: their records, snapshots and seeds live in lowdb's
 * Low<StoreData> on its Memory adapter (reads take `db.data`, every change goes through
 * `db.update`), with the indexes beside it: the registry of which tenants are held, and the seed
 * options of those created with their own. The read path: nothing here waits for I/O but the
 * making of a seed of a tenant's own.
 */
export class TenantMemory {
  readonly db = new Low<StoreData>(new Memory<StoreData>(), { tenants: new Map(), snapshots: new Map(), seeds: new Map() })
  readonly registry: TenantRegistry
  /** The seed options of the tenants created with their own. */
  readonly seedSpecs = new Map<string, TenantSeed>()

  constructor(
    /** The seeded records every tenant starts from (and returns to on reset). */
    readonly shared: TenantData,
    maxTenants: number,
    /** Makes the seed of a tenant created with options of its own. */
    private readonly seedFor: (spec: SeedSpec) => Promise<TenantState>,
  ) {
    this.registry = new TenantRegistry(maxTenants)
  }

  /**
   * A change of the records through lowdb: Low.update applies `change` to its `data` before its
   * first await, then hands the data to the Memory adapter, so the change holds once this returns.
   */
  private update(change: (data: StoreData) => void): void {
    void this.db.update(change)
  }

  has(tenant: string): boolean {
    return this.db.data.tenants.has(tenant)
  }

  dataOf(tenant: string): TenantData {
    const data = this.db.data.tenants.get(tenant)
    if (!data) throw new Error(`tenant was not opened before use`)
    return data
  }

  /** The tenant's snapshots, made an empty list when it has none. */
  private snapshotsOf(tenant: string): Map<string, Snapshot> {
    const snapshots = this.db.data.snapshots.get(tenant)
    if (snapshots) return snapshots
    const made = new Map<string, Snapshot>()
    this.update((data) => data.snapshots.set(tenant, made))
    return made
  }

  /** The tenant's snapshots, without making an empty list for a tenant that has none. */
  snapshotsHeld(tenant: string): ReadonlyMap<string, Snapshot> | undefined {
    return this.db.data.snapshots.get(tenant)
  }

  /** The tenant's seed: the shared one, or its own, made from its options on first use. */
  async seedOf(tenant: string): Promise<TenantData> {
    const made = this.db.data.seeds.get(tenant)
    if (made) return made
    const spec = this.seedSpecs.get(tenant)
    if (!spec) return this.shared
    const data = await this.seedData(spec)
    this.update(({ seeds }) => seeds.set(tenant, data))
    return data
  }

  /** A seed's records: the shared seed's, or made from a seed of its own. */
  async seedData(spec: TenantSeed | undefined): Promise<TenantData> {
    return spec === undefined ? this.shared : tenantDataInSlices('state' in spec ? spec.state : await this.seedFor(spec.options))
  }

  /** A stored tenant made in memory: its seed, its records and its snapshots. */
  async madeOf(saved: SavedTenant | undefined) {
    const seed = await this.seedData(saved?.seed)
    return { seed, ...(await overlaidTenant(seed, saved)) }
  }

  /** The tenant made again whole, as stored: its seed (`spec`: a seed of its own, or none), records and snapshots. */
  reload(tenant: string, spec: TenantSeed | undefined, made: { seed: TenantData; data: TenantData; snapshots: Map<string, Snapshot> }): void {
    if (spec) this.seedSpecs.set(tenant, spec)
    else this.seedSpecs.delete(tenant)
    this.update(({ seeds, tenants, snapshots }) => {
      seeds.set(tenant, made.seed)
      tenants.set(tenant, made.data)
      snapshots.set(tenant, made.snapshots)
    })
  }

  /** The tenant's seed becomes `spec`'s, made on first use. */
  reseed(tenant: string, spec: TenantSeed): void {
    this.seedSpecs.set(tenant, spec)
    this.update(({ seeds }) => seeds.delete(tenant))
  }

  /** The tenant with its seed of its own, made from `spec`, and its records that seed's. */
  created(tenant: string, spec: SeedSpec, seed: TenantData): void {
    this.seedSpecs.set(tenant, { options: spec })
    this.update(({ seeds, tenants }) => {
      seeds.set(tenant, seed)
      tenants.set(tenant, seed)
    })
  }

  /** Applies a change already stored. */
  apply(tenant: string, next: TenantData): void {
    this.update(({ tenants }) => tenants.set(tenant, next))
    this.registry.markWritten(tenant)
  }

  /** Holds the tenant's records as they are, unwritten: its seed, or as stored (set). */
  set(tenant: string, data: TenantData, snapshots?: Map<string, Snapshot>): void {
    this.update((held) => {
      held.tenants.set(tenant, data)
      if (snapshots) held.snapshots.set(tenant, snapshots)
    })
  }

  keepSnapshot(tenant: string, name: string, snapshot: Snapshot): void {
    const snapshots = this.snapshotsOf(tenant)
    this.update(() => {
      snapshots.delete(name)
      snapshots.set(name, snapshot)
    })
  }

  dropSnapshot(tenant: string, name: string): void {
    this.update(({ snapshots }) => snapshots.get(tenant)?.delete(name))
  }

  /** Every tenant held, most recently used first, as the tenant list shows it. */
  heldTenants(): TenantInfo[] {
    return this.registry.list().map(({ tenant, written, pinned, calls }) => {
      const kept = written || pinned || (this.snapshotsHeld(tenant)?.size ?? 0) > 0
      return { key: tenant, calls, kept, created: this.seedSpecs.has(tenant) }
    })
  }

  /** Forgets a tenant released: it comes back from its seed (or its store). */
  drop(tenant: string): void {
    this.update(({ tenants, snapshots, seeds }) => {
      tenants.delete(tenant)
      snapshots.delete(tenant)
      seeds.delete(tenant)
    })
  }
}

export const infoOf = (name: string, snapshot: Snapshot): SnapshotInfo => ({ name, createdAt: snapshot.createdAt, counts: countsOf(snapshot.data) })
