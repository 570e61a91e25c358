import { Low, Memory } from 'lowdb'
import { groupedPerTick } from './grouped-per-tick.ts'
import { jsonFileAdapter, StoreFileError } from './json-file-adapter.ts'
import type { TenantState } from './records.ts'
import type { Snapshot, StoreData } from './store-data.ts'
import { StoreWriteFailed, type SnapshotInfo, type Store, type TenantView } from './store.ts'
import { countsOf, tenantDataFromState, stateFromTenantData, type TenantData } from './tenant-data.ts'
import { TenantRegistry } from './tenant-registry.ts'
import { PendingTransaction } from './tenant-transaction.ts'

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

  const snapshotsOf = (tenant: string): Map<string, Snapshot> => {
    let snapshots = db.data.snapshots.get(tenant)
    if (!snapshots) db.data.snapshots.set(tenant, (snapshots = new Map()))
    return snapshots
  }

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
      const { created, evicted } = registry.admit(tenant)
      if (evicted !== undefined) {
        db.data.tenants.delete(evicted)
        db.data.snapshots.delete(evicted)
        queues.delete(evicted)
      }
      if (created) db.data.tenants.set(tenant, base)
    },

    read(tenant, work) {
      return serialized(tenant, async () => {
        const view: TenantView = new PendingTransaction(dataOf(tenant))
        return work(view)
      })
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
      return serialized(tenant, async () => stateFromTenantData(dataOf(tenant)))
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
      await write()
      return true
    },

    reset(tenant) {
      return serialized(tenant, () => commit(tenant, db.data.seeds.get(tenant) ?? base))
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
        await write()
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
        await write()
        return infoOf(name, snapshot)
      })
    },
  }
  return store
}

const infoOf = (name: string, snapshot: Snapshot): SnapshotInfo => ({ name, createdAt: snapshot.createdAt, counts: countsOf(snapshot.data) })
