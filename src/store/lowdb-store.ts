import { Low, Memory, type Adapter } from 'lowdb'
import type { TenantState } from './records.ts'
import type { Store, TenantView } from './store.ts'
import { tenantDataFromState, stateFromTenantData, type TenantData } from './tenant-data.ts'
import { TenantRegistry } from './tenant-registry.ts'
import { PendingTransaction } from './tenant-transaction.ts'

/** Everything the store keeps: each tenant's committed records, by API key. */
export interface StoreData {
  tenants: Map<string, TenantData>
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
  const db = new Low<StoreData>(options.adapter ?? new Memory<StoreData>(), { tenants: new Map() })
  const registry = new TenantRegistry(options.maxTenants)
  const queues = new Map<string, Promise<unknown>>()

  const dataOf = (tenant: string): TenantData => {
    const data = db.data.tenants.get(tenant)
    if (!data) throw new Error(`tenant was not opened before use`)
    return data
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

    reset(tenant) {
      return serialized(tenant, async () => {
        db.data.tenants.set(tenant, base)
        await db.write()
      })
    },

    async resetAll() {
      await Promise.all([...registry.keys()].map((tenant) => store.reset(tenant)))
    },
  }
  return store
}
