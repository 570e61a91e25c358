import { Low, Memory } from 'lowdb'
import { groupedPerTick } from './grouped-per-tick.ts'
import { jsonFileAdapter, StoreFileError } from './json-file-adapter.ts'
import type { TenantState } from './records.ts'
import { StoreWriteFailed, type SnapshotInfo, type Store } from './store.ts'
import { countsOf, tenantDataFromState, stateFromTenantData, type TenantData } from './tenant-data.ts'
import { TenantRegistry } from './tenant-registry.ts'
import { PendingTransaction } from './tenant-transaction.ts'

/** A tenant's records as they were at `createdAt`: a reference, since records never change. */
export interface Snapshot {
  data: TenantData
  createdAt: string
}

/** Everything the store keeps, by API key: each tenant's committed records and its snapshots. */
export interface StoreData {
  tenants: Map<string, TenantData>
  snapshots: Map<string, Map<string, Snapshot>>
  /** Seeds of the tenants created with their own (the others start from the shared one). */
  seeds: Map<string, TenantData>
}

export interface LowdbStoreOptions {
  /** The seeded records every tenant starts from (and returns to on reset). */
  seed: TenantState
  maxTenants: number
  /** A JSON file that keeps every tenant across restarts; in memory when absent. */
  file?: string | undefined
}

/**
 * The store port on lowdb: a Low<StoreData>, in memory or in a JSON file. A change is answered
 * only once it is written; the changes of one tick share one write.
 */
export async function createLowdbStore(options: LowdbStoreOptions): Promise<Store> {
  const base = tenantDataFromState(options.seed)
  const adapter = options.file === undefined ? new Memory<StoreData>() : jsonFileAdapter(options.file, base)
  const db = new Low<StoreData>(adapter, { tenants: new Map(), snapshots: new Map(), seeds: new Map() })
  await db.read().catch((error: unknown) => {
    if (error instanceof StoreFileError) throw error
    throw new StoreFileError(`${options.file}: cannot read (${(error as Error).message})`)
  })
  const registry = new TenantRegistry(options.maxTenants)
  for (const tenant of db.data.tenants.keys()) {
    registry.restore(tenant, { written: true, pinned: db.data.seeds.has(tenant) || db.data.snapshots.has(tenant) })
  }
  const queues = new Map<string, Promise<unknown>>()
  // A file is rewritten once per turn of the event loop for every change in it; in memory a write
  // costs nothing, and waiting a turn would let one tenant commit only once per turn.
  const persist = options.file === undefined ? () => db.write() : groupedPerTick(() => db.write())

  const dataOf = (tenant: string): TenantData => {
    const data = db.data.tenants.get(tenant)
    if (!data) throw new Error(`tenant was not opened before use`)
    return data
  }

  /** Makes the store hold `tenant`, dropping one never written to if the bound is reached. */
  const admit = (tenant: string, call: boolean) => {
    const { created, evicted } = registry.admit(tenant, call)
    if (evicted !== undefined) {
      db.data.tenants.delete(evicted)
      db.data.snapshots.delete(evicted)
      queues.delete(evicted)
    }
    if (created) db.data.tenants.set(tenant, base)
  }

  /** A change is about to be made: it is made to a tenant the store holds. */
  const admitForChange = (tenant: string) => {
    if (!registry.has(tenant)) admit(tenant, false)
  }

  /**
   * Runs `work` on the tenant's data after its pending writes. A tenant the store does not hold
   * has none and reads as the seed, at once: no queue is kept for it, so looking costs nothing.
   */
  const reading = <T>(tenant: string, work: (data: TenantData) => T): Promise<T> =>
    registry.has(tenant) ? serialized(tenant, async () => work(dataOf(tenant))) : Promise.resolve().then(() => work(base))

  const snapshotsOf = (tenant: string): Map<string, Snapshot> => {
    let snapshots = db.data.snapshots.get(tenant)
    if (!snapshots) db.data.snapshots.set(tenant, (snapshots = new Map()))
    return snapshots
  }

  /** Without making an empty list for a tenant that has none. */
  const snapshotOf = (tenant: string, name: string): Snapshot | undefined => db.data.snapshots.get(tenant)?.get(name)

  const write = () => persist().catch((error: unknown) => Promise.reject(new StoreWriteFailed(error)))

  /**
   * Applies `next` and waits for it to be written; a failed write takes it back, so nothing that
   * was not stored is kept. Reads queue behind the tenant's writes, so none sees it meanwhile.
   */
  const commit = async (tenant: string, next: TenantData) => {
    const previous = db.data.tenants.get(tenant)
    db.data.tenants.set(tenant, next)
    try {
      await write()
    } catch (error) {
      if (db.data.tenants.get(tenant) === next && previous) db.data.tenants.set(tenant, previous)
      throw error
    }
    registry.markWritten(tenant)
  }

  /** Runs `task` after every earlier task of this tenant has settled. */
  const serialized = <T>(tenant: string, task: () => Promise<T>): Promise<T> => {
    const run = (queues.get(tenant) ?? Promise.resolve()).then(task)
    queues.set(tenant, run.catch(() => undefined))
    return run
  }

  const store: Store = {
    async open(tenant) {
      admit(tenant, true)
    },

    read(tenant, work) {
      return reading(tenant, (data) => work(new PendingTransaction(data)))
    },

    transact(tenant, work) {
      return serialized(tenant, async () => {
        const tx = new PendingTransaction(dataOf(tenant))
        const result = work(tx)
        const next = tx.commit()
        if (next) await commit(tenant, next)
        return result
      })
    },

    exportState(tenant) {
      return reading(tenant, stateFromTenantData)
    },

    async importState(tenant, state) {
      admitForChange(tenant)
      return serialized(tenant, () => commit(tenant, tenantDataFromState(state)))
    },

    async createTenant(tenant, seed) {
      if (registry.has(tenant)) return false
      admit(tenant, false)
      registry.pin(tenant)
      const data = tenantDataFromState(seed)
      db.data.seeds.set(tenant, data)
      db.data.tenants.set(tenant, data)
      await write()
      return true
    },

    async reset(tenant) {
      // A tenant the store does not hold is its seed already (a created one is always held).
      if (!registry.has(tenant)) return
      return serialized(tenant, () => commit(tenant, db.data.seeds.get(tenant) ?? base))
    },

    async resetAll() {
      await Promise.all([...registry.keys()].map((tenant) => store.reset(tenant)))
    },

    async saveSnapshot(tenant, name, at) {
      admitForChange(tenant)
      return serialized(tenant, async () => {
        const snapshots = snapshotsOf(tenant)
        const snapshot = { data: dataOf(tenant), createdAt: at.toISOString() }
        snapshots.delete(name)
        snapshots.set(name, snapshot)
        // A tenant holding snapshots is never dropped to make room for another.
        registry.pin(tenant)
        await write()
        return infoOf(name, snapshot)
      })
    },

    async listSnapshots(tenant) {
      return [...(db.data.snapshots.get(tenant) ?? [])].map(([name, snapshot]) => infoOf(name, snapshot))
    },

    async restoreSnapshot(tenant, name) {
      // A tenant holding snapshots is pinned, so held: one the store does not hold has none.
      if (!snapshotOf(tenant, name)) return undefined
      return serialized(tenant, async () => {
        const snapshot = snapshotOf(tenant, name)
        if (!snapshot) return undefined
        await commit(tenant, snapshot.data)
        return infoOf(name, snapshot)
      })
    },

    async deleteSnapshot(tenant, name) {
      if (!snapshotOf(tenant, name)) return undefined
      return serialized(tenant, async () => {
        const snapshot = snapshotOf(tenant, name)
        if (!snapshot) return undefined
        db.data.snapshots.get(tenant)!.delete(name)
        await write()
        return infoOf(name, snapshot)
      })
    },

    tenants() {
      return registry.list().map(({ tenant, written, pinned, calls }) => ({ key: tenant, calls, kept: written || pinned, created: db.data.seeds.has(tenant) }))
    },
  }
  return store
}

const infoOf = (name: string, snapshot: Snapshot): SnapshotInfo => ({ name, createdAt: snapshot.createdAt, counts: countsOf(snapshot.data) })
