import { Low, Memory, type Adapter } from 'lowdb'
import type { TenantState } from './records.ts'
import type { SnapshotInfo, Store, TenantView } from './store.ts'
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
  /** Where the data lives; in memory by default. */
  adapter?: Adapter<StoreData>
}

/** The store port on lowdb: a Low<StoreData> written after every committed change. */
export function createLowdbStore(options: LowdbStoreOptions): Store {
  const base = tenantDataFromState(options.seed)
  const db = new Low<StoreData>(options.adapter ?? new Memory<StoreData>(), { tenants: new Map(), snapshots: new Map(), seeds: new Map() })
  const registry = new TenantRegistry(options.maxTenants)
  const queues = new Map<string, Promise<unknown>>()

  const dataOf = (tenant: string): TenantData => {
    const data = db.data.tenants.get(tenant)
    if (!data) throw new Error(`tenant was not opened before use`)
    return data
  }

  const snapshotsOf = (tenant: string): Map<string, Snapshot> => {
    let snapshots = db.data.snapshots.get(tenant)
    if (!snapshots) db.data.snapshots.set(tenant, (snapshots = new Map()))
    return snapshots
  }

  const commit = async (tenant: string, next: TenantData) => {
    db.data.tenants.set(tenant, next)
    registry.markWritten(tenant)
    await db.write()
  }

  /** Runs `task` after every earlier task of this tenant has settled. */
  const serialized = <T>(tenant: string, task: () => Promise<T>): Promise<T> => {
    const run = (queues.get(tenant) ?? Promise.resolve()).then(task)
    queues.set(tenant, run.catch(() => undefined))
    return run
  }

  const store: Store = {
    async open(tenant) {
      const { created, evicted } = registry.admit(tenant)
      if (evicted !== undefined) {
        db.data.tenants.delete(evicted)
        db.data.snapshots.delete(evicted)
        queues.delete(evicted)
      }
      if (created) db.data.tenants.set(tenant, base)
    },

    async read(tenant, work) {
      const data = dataOf(tenant)
      const view: TenantView = new PendingTransaction(data)
      return work(view)
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

    async exportState(tenant) {
      return stateFromTenantData(dataOf(tenant))
    },

    importState(tenant, state) {
      return serialized(tenant, () => commit(tenant, tenantDataFromState(state)))
    },

    async createTenant(tenant, seed) {
      if (registry.has(tenant)) return false
      await store.open(tenant)
      registry.pin(tenant)
      const data = tenantDataFromState(seed)
      db.data.seeds.set(tenant, data)
      db.data.tenants.set(tenant, data)
      await db.write()
      return true
    },

    reset(tenant) {
      return serialized(tenant, async () => {
        db.data.tenants.set(tenant, db.data.seeds.get(tenant) ?? base)
        await db.write()
      })
    },

    async resetAll() {
      await Promise.all([...registry.keys()].map((tenant) => store.reset(tenant)))
    },

    saveSnapshot(tenant, name, at) {
      return serialized(tenant, async () => {
        const snapshots = snapshotsOf(tenant)
        const snapshot = { data: dataOf(tenant), createdAt: at.toISOString() }
        snapshots.delete(name)
        snapshots.set(name, snapshot)
        // A tenant holding snapshots is never dropped to make room for another.
        registry.pin(tenant)
        await db.write()
        return infoOf(name, snapshot)
      })
    },

    async listSnapshots(tenant) {
      return [...snapshotsOf(tenant)].map(([name, snapshot]) => infoOf(name, snapshot))
    },

    restoreSnapshot(tenant, name) {
      return serialized(tenant, async () => {
        const snapshot = snapshotsOf(tenant).get(name)
        if (!snapshot) return undefined
        await commit(tenant, snapshot.data)
        return infoOf(name, snapshot)
      })
    },

    deleteSnapshot(tenant, name) {
      return serialized(tenant, async () => {
        const snapshots = snapshotsOf(tenant)
        const snapshot = snapshots.get(name)
        if (!snapshot) return undefined
        snapshots.delete(name)
        await db.write()
        return infoOf(name, snapshot)
      })
    },
  }
  return store
}

const infoOf = (name: string, snapshot: Snapshot): SnapshotInfo => ({ name, createdAt: snapshot.createdAt, counts: countsOf(snapshot.data) })
