import { Low, Memory } from 'lowdb'
import type { SavedTenant, TenantSeed } from '../store-backend.ts'
import type { SeedSpec, SnapshotInfo, StateCounts, TenantInfo } from '../store.ts'
import type { TenantState } from '../records.ts'
import type { KeptClock } from '../../clock/clock-setting.ts'
import { countsOf, stateFromTenantData, tenantDataInSlices, type TenantData } from './tenant-data.ts'
import { TenantRegistry } from './tenant-registry.ts'
import { overlaidTenant } from './overlay.ts'
import { averagesOf, bytesOfCounts, bytesOfData, withBytes, type RecordAverages } from './held-bytes.ts'
import { TenantKeyRecords } from './key-records/tenant-key-records.ts'
import { HeldFaults } from './held-faults.ts'

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
  /** Per tenant held, the estimate of what it holds beyond the shared seed (held-bytes.ts); `heldBytes` their sum. */
  private readonly tenantBytes = new Map<string, number>()
  heldBytes = 0
  /** The tenants' clocks (store/tenant-parts/clock-methods.ts), part of each tenant's value as its records are; none kept: the starting clock. */
  readonly clocks = new Map<string, KeptClock>()
  /** The tenants' fault rules (store/tenant-parts/fault-methods.ts) and finished idempotency records (store/tenant-parts/key-record-methods.ts), parts of their values too. */
  readonly faults = new HeldFaults()
  readonly keys = new TenantKeyRecords()

  constructor(
    /** The seeded records every tenant starts from (and returns to on reset). */
    readonly shared: TenantData,
    maxTenants: number,
    /** Makes the seed of a tenant created with options of its own. */
    private readonly seedFor: (spec: SeedSpec) => Promise<TenantState>,
    /** What a record of each kind costs on average, for a seed of a tenant's own. */
    private readonly averages: RecordAverages = averagesOf(stateFromTenantData(shared)),
    /** The counts a seed's options make (absent: about five messages per subscriber, the shared seed's integrations). */
    private readonly countsOfSeed: (spec: SeedSpec) => StateCounts = (spec) => ({
      subscribers: spec.subscribers,
      integrations: shared.integrations.size,
      channelConnections: spec.channelConnections,
      messages: spec.messages ?? 5 * spec.subscribers,
    }),
  ) {
    this.registry = new TenantRegistry(maxTenants)
  }

  /**
   * A change of the records through lowdb: Low.update applies `change` to its `data` before its
   * first await, then hands the data to the Memory adapter, so the change holds once this returns.
   */
  private update(change: (data: StoreData) => void, tenant?: string): void {
    void this.db.update(change)
    if (tenant !== undefined) this.count(tenant)
  }

  /** The tenant's estimate, counted again after a change of what it holds. */
  private count(tenant: string): void {
    const bytes = this.has(tenant) ? this.bytesIf(tenant, {}) : 0
    this.heldBytes += bytes - (this.tenantBytes.get(tenant) ?? 0)
    if (bytes === 0) this.tenantBytes.delete(tenant)
    else this.tenantBytes.set(tenant, bytes)
  }

  /** The tenant's estimate as it stands. */
  bytesOf(tenant: string): number {
    return this.tenantBytes.get(tenant) ?? 0
  }

  /**
   * The tenant's estimate were its records `data` and (`snapshot`) that snapshot kept: its records,
   * and each snapshot that is not its records now, less the seed they share.
   */
  bytesIf(tenant: string, { data, snapshot }: { data?: TenantData; snapshot?: [string, TenantData] }): number {
    const current = data ?? this.db.data.tenants.get(tenant)
    const snapshots = this.db.data.snapshots.get(tenant)
    // Most tenants keep no snapshot: their records alone, on every write.
    if (current && !snapshot && !snapshots?.size) return bytesOfData(current)
    const seed = this.db.data.seeds.get(tenant)
    const seedBytes = seed ? bytesOfData(seed) : 0
    const kept = new Set<TenantData>()
    for (const [name, held] of snapshots ?? []) if (name !== snapshot?.[0]) kept.add(held.data)
    if (snapshot) kept.add(snapshot[1])
    if (current) kept.delete(current)
    let bytes = current ? bytesOfData(current) : seedBytes
    for (const held of kept) bytes += Math.max(0, bytesOfData(held) - seedBytes)
    return bytes
  }

  /** What the tenant's estimate would grow by with that change (bytesIf). */
  growthIf(tenant: string, change: Parameters<TenantMemory['bytesIf']>[1]): number {
    return this.bytesIf(tenant, change) - this.bytesOf(tenant)
  }

  /** What a seed of these options will hold, known before it is made. */
  bytesOfSeed(spec: SeedSpec): number {
    return bytesOfCounts(this.countsOfSeed(spec), this.averages)
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
    this.update(({ seeds }) => seeds.set(tenant, data), tenant)
    return data
  }

  /** A seed's records: the shared seed's, or made from a seed of its own. */
  async seedData(spec: TenantSeed | undefined): Promise<TenantData> {
    if (spec === undefined) return this.shared
    if ('state' in spec) return withBytes(await tenantDataInSlices(spec.state), bytesOfCounts(countsOfState(spec.state), this.averages))
    return withBytes(await tenantDataInSlices(await this.seedFor(spec.options)), this.bytesOfSeed(spec.options))
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
    }, tenant)
  }

  /** The tenant's seed becomes `spec`'s, made on first use. */
  reseed(tenant: string, spec: TenantSeed): void {
    this.seedSpecs.set(tenant, spec)
    this.update(({ seeds }) => seeds.delete(tenant), tenant)
  }

  /** The tenant with its seed of its own, made from `spec`, and its records that seed's. */
  created(tenant: string, spec: SeedSpec, seed: TenantData): void {
    this.seedSpecs.set(tenant, { options: spec })
    this.update(({ seeds, tenants }) => {
      seeds.set(tenant, seed)
      tenants.set(tenant, seed)
    }, tenant)
  }

  /** Applies a change already stored. */
  apply(tenant: string, next: TenantData): void {
    this.update(({ tenants }) => tenants.set(tenant, next), tenant)
    this.registry.markWritten(tenant)
  }

  /** Holds the tenant's records as they are, unwritten: its seed, or as stored (set). */
  set(tenant: string, data: TenantData, snapshots?: Map<string, Snapshot>): void {
    this.update((held) => {
      held.tenants.set(tenant, data)
      if (snapshots) held.snapshots.set(tenant, snapshots)
    }, tenant)
  }

  keepSnapshot(tenant: string, name: string, snapshot: Snapshot): void {
    const snapshots = this.snapshotsOf(tenant)
    this.update(() => {
      snapshots.delete(name)
      snapshots.set(name, snapshot)
    }, tenant)
  }

  dropSnapshot(tenant: string, name: string): void {
    this.update(({ snapshots }) => snapshots.get(tenant)?.delete(name), tenant)
  }

  /** Every tenant held, most recently used first, as the tenant list shows it. */
  heldTenants(): TenantInfo[] {
    return this.registry.list().map(({ tenant, written, created, calls }) => {
      const kept = written || created || (this.snapshotsHeld(tenant)?.size ?? 0) > 0
      return { key: tenant, calls, kept, created: this.seedSpecs.has(tenant) }
    })
  }

  /** The tenant's clock becomes `clock` (undefined: none kept). */
  setClock(tenant: string, clock: KeptClock | undefined): void {
    void (clock === undefined ? this.clocks.delete(tenant) : this.clocks.set(tenant, clock))
  }

  /** Forgets a tenant released: it comes back from its seed (or its store). */
  drop(tenant: string): void {
    this.update(({ tenants, snapshots, seeds }) => {
      tenants.delete(tenant)
      snapshots.delete(tenant)
      seeds.delete(tenant)
      this.keys.forget(tenant)
      // With a shared backend the rules come back with the tenant; else they are gone (docs/behaviour.md §3).
      this.faults.set(tenant, undefined)
    }, tenant)
  }
}

const countsOfState = (state: TenantState): StateCounts => ({
  subscribers: state.subscribers.length,
  integrations: state.integrations.length,
  channelConnections: state.channelConnections.length,
  messages: state.messages.length,
})

export const infoOf = (name: string, snapshot: Snapshot): SnapshotInfo => ({ name, createdAt: snapshot.createdAt, counts: countsOf(snapshot.data) })
