import { inSlices } from '../lib/slices.ts'
import { overlaidSteps, overlaidTenant, rowsOfPut, rowsOfState } from './overlay.ts'
import type { TenantState } from './records.ts'
import { isShared, type Change, type SavedStore, type SavedTenant, type StoreBackend } from './store-backend.ts'
import { sharedTenants, VersionConflict, writeFailure } from './shared-tenants.ts'
import type { KeyedWrite, SeedSpec, Store } from './store.ts'
import { countsOf, tenantDataFromState, tenantDataInSlices, stateFromTenantData, type TenantData } from './tenant-data.ts'
import { infoOf, TenantMemory, type Snapshot } from './tenant-memory.ts'
import { PendingTransaction } from './tenant-transaction.ts'

export interface LowdbStoreOptions {
  /** The seeded records every tenant starts from (and returns to on reset). */
  seed: TenantState
  maxTenants: number
  /** Makes the seed of a tenant created with options of its own. */
  seedFor: (spec: SeedSpec) => Promise<TenantState>
  /** Where every change is made durable before it is applied; in memory alone when absent. */
  backend?: StoreBackend | undefined
}

const NOTHING_SAVED: SavedStore = { tenants: new Map(), maxSeq: 0, keyRecords: [] }

/**
 * The store port on lowdb's Low<StoreData> in memory (tenant-memory.ts): the read path, with no
 * I/O. With a backend, each change is first stored there (store-backend.ts) and applied here only
 * once durable; the tenants an earlier run stored are made again from their seed and rows on
 * first use. With a backend several processes share, memory is a cache of the tenants this
 * process serves, brought up to date before each use (shared-tenants.ts).
 */
export async function createLowdbStore(options: LowdbStoreOptions): Promise<Store> {
  const { backend } = options
  const memory = new TenantMemory(tenantDataFromState(options.seed), options.maxTenants, options.seedFor)
  const { registry, seedSpecs, shared } = memory
  const saved = backend ? await backend.load() : NOTHING_SAVED
  let savedKeyRecords = saved.keyRecords
  let lastSeq = saved.maxSeq
  const nextSeq = () => ++lastSeq
  /** Tenants of an earlier run not yet made again in memory. */
  const unread = new Map<string, SavedTenant>(saved.tenants)
  for (const [tenant, entry] of saved.tenants) {
    registry.restore(tenant, { written: true, pinned: entry.seed !== undefined || entry.snapshots.length > 0 })
    if (entry.seed) seedSpecs.set(tenant, entry.seed)
  }
  const loading = new Map<string, Promise<void>>()
  const queues = new Map<string, Promise<unknown>>()

  /** Runs `task` after every earlier task of this tenant has settled. */
  const serialized = <T>(tenant: string, task: () => Promise<T>): Promise<T> => {
    const run = (queues.get(tenant) ?? Promise.resolve()).then(task)
    queues.set(tenant, run.catch(() => undefined))
    return run
  }

  const remote = isShared(backend) ? sharedTenants(backend, memory, serialized, options.maxTenants, (data, tx) => rowsOfPut(data, tx.put(), nextSeq)) : undefined

  /** Makes a tenant of an earlier run again: its seed, its rows over it, its snapshots. */
  const load = async (tenant: string): Promise<void> => {
    const entry = unread.get(tenant)
    const seed = await memory.seedOf(tenant)
    if (memory.has(tenant)) return
    const { data, snapshots } = overlaidTenant(seed, entry)
    memory.set(tenant, data, snapshots.size > 0 ? snapshots : undefined)
    unread.delete(tenant)
  }

  /** Resolves once the tenant's records are in memory. */
  const loaded = (tenant: string): Promise<void> | undefined => {
    if (memory.has(tenant)) return undefined
    let pending = loading.get(tenant)
    if (!pending) {
      pending = load(tenant).finally(() => loading.delete(tenant))
      loading.set(tenant, pending)
    }
    return pending
  }

  /** Stores the change, with the idempotency record of the call that made it if any, if there is a backend; a failure is a StoreWriteFailed. */
  const persist = async (change: Change, keyed?: KeyedWrite): Promise<void> => {
    if (!backend) return
    try {
      if (remote) await remote.write(change)
      else await backend.write(keyed ? [change, { type: 'keyRecord', tenant: change.tenant, ...keyed }] : [change])
    } catch (error) {
      throw writeFailure(error)
    }
  }

  /** The held tenant's records as they stand: loaded, and with a shared backend, up to its version there. */
  const current = (tenant: string): Promise<void> | undefined => (remote ? remote.sync(tenant) : loaded(tenant))

  /** A change of the tenant, after its earlier ones; made again over the tenant as it stands when another process wrote first. */
  const changing = <T>(tenant: string, attempt: () => Promise<T>): Promise<T> =>
    serialized(tenant, async () => {
      if (remote) return remote.attempt(tenant, attempt)
      await loaded(tenant)
      return attempt()
    })

  /** Marks the tenant used (a call of the API when `call`), dropping another to make room if need be; true when it is new. */
  const admit = (tenant: string, call: boolean): boolean => {
    const { created, evicted } = registry.admit(tenant, call)
    if (evicted !== undefined) {
      memory.drop(evicted)
      queues.delete(evicted)
      remote?.forget(evicted)
    }
    return created
  }

  /** Makes the store hold the tenant, its records in memory. */
  const hold = async (tenant: string, call: boolean): Promise<void> => {
    const created = admit(tenant, call)
    if (remote) return created ? remote.enter(tenant) : undefined
    if (created && !unread.has(tenant) && !seedSpecs.has(tenant)) return memory.set(tenant, shared)
    // Awaited only when there is something to wait for: every call opens its tenant.
    const pending = loaded(tenant)
    if (pending) await pending
  }

  /** A change is about to be made: it is made to a tenant the store holds, and loaded. */
  const holdForChange = (tenant: string): Promise<void> | undefined => (registry.has(tenant) ? loaded(tenant) : hold(tenant, false))

  /**
   * Runs `work` on the tenant's records after its pending writes. A tenant the store does not hold
   * reads as the shared seed, at once, and stays unheld: looking costs nothing (docs/behaviour.md §3).
   */
  const reading = <T>(tenant: string, work: (data: TenantData) => T): Promise<T> => {
    if (registry.has(tenant)) {
      if (remote) return remote.read(tenant, () => work(memory.dataOf(tenant)))
      return serialized(tenant, async () => {
        await loaded(tenant)
        return work(memory.dataOf(tenant))
      })
    }
    if (remote) return remote.peek(tenant).then(({ data }) => work(data))
    return Promise.resolve().then(() => work(shared))
  }

  /** The tenant's snapshots as they stand, without making an empty list for a tenant that has none. */
  const snapshotsNow = async (tenant: string): Promise<ReadonlyMap<string, Snapshot> | undefined> => {
    if (!registry.has(tenant)) return remote ? (await remote.peek(tenant)).snapshots : undefined
    await serialized(tenant, async () => current(tenant))
    return memory.snapshotsHeld(tenant)
  }

  const snapshotOf = async (tenant: string, name: string) => (await snapshotsNow(tenant))?.get(name)

  const store: Store = {
    open(tenant) {
      return hold(tenant, true)
    },

    read(tenant, work) {
      return reading(tenant, (data) => work(new PendingTransaction(data)))
    },

    transact(tenant, work, recordOf) {
      if (remote) return remote.transact(tenant, work, recordOf)
      return changing(tenant, async () => {
        const data = memory.dataOf(tenant)
        const tx = new PendingTransaction(data)
        const result = work(tx)
        const next = tx.commit()
        if (!next) return result
        if (backend) await persist({ type: 'put', tenant, rows: rowsOfPut(data, tx.put(), nextSeq) }, recordOf?.(result))
        memory.apply(tenant, next)
        return result
      })
    },

    exportState(tenant) {
      return reading(tenant, stateFromTenantData)
    },

    async importState(tenant, state) {
      await holdForChange(tenant)
      return changing(tenant, async () => {
        const seed = await memory.seedOf(tenant)
        // In slices: a large state leaves the other tenants' calls answered meanwhile.
        const rows = await inSlices(rowsOfState(seed, state, nextSeq))
        await persist({ type: 'replace', tenant, rows })
        memory.apply(tenant, await inSlices(overlaidSteps(seed, rows)))
      })
    },

    async createTenant(tenant, spec) {
      if (registry.has(tenant)) return undefined
      const seed = await tenantDataInSlices(await options.seedFor(spec))
      // With a shared backend, one another process created or wrote exists too.
      if (registry.has(tenant) || (remote && (await remote.hasState(tenant)))) return undefined
      admit(tenant, false)
      registry.pin(tenant)
      try {
        await persist({ type: 'createTenant', tenant, seed: { options: spec } })
      } catch (error) {
        registry.remove(tenant)
        remote?.forget(tenant)
        if (error instanceof VersionConflict) return undefined
        throw error
      }
      memory.created(tenant, spec, seed)
      return countsOf(seed)
    },

    async reset(tenant) {
      // A tenant the store does not hold is its seed already (a created one is always held), unless another process wrote it.
      if (!registry.has(tenant)) {
        if (!remote || !(await remote.hasState(tenant))) return
        await holdForChange(tenant)
      }
      return changing(tenant, async () => {
        const seed = await memory.seedOf(tenant)
        await persist({ type: 'replace', tenant, rows: [] })
        memory.apply(tenant, seed)
      })
    },

    async resetAll() {
      const everywhere = remote ? (await remote.tenants()).map(({ tenant }) => tenant) : []
      await Promise.all([...new Set([...registry.keys(), ...everywhere])].map((tenant) => store.reset(tenant)))
    },

    async saveSnapshot(tenant, name, at) {
      await holdForChange(tenant)
      return changing(tenant, async () => {
        const snapshot = { data: memory.dataOf(tenant), createdAt: at.toISOString() }
        await persist({ type: 'saveSnapshot', tenant, name, createdAt: snapshot.createdAt })
        memory.keepSnapshot(tenant, name, snapshot)
        return infoOf(name, snapshot)
      })
    },

    async listSnapshots(tenant) {
      return [...((await snapshotsNow(tenant)) ?? [])].map(([name, snapshot]) => infoOf(name, snapshot))
    },

    async restoreSnapshot(tenant, name) {
      // A tenant holding snapshots is pinned, so held; with a shared backend, held once restored.
      if (!(await snapshotOf(tenant, name))) return undefined
      await holdForChange(tenant)
      return changing(tenant, async () => {
        const snapshot = memory.snapshotsHeld(tenant)?.get(name)
        if (!snapshot) return undefined
        await persist({ type: 'restoreSnapshot', tenant, name })
        memory.apply(tenant, snapshot.data)
        return infoOf(name, snapshot)
      })
    },

    async deleteSnapshot(tenant, name) {
      if (!(await snapshotOf(tenant, name))) return undefined
      await holdForChange(tenant)
      return changing(tenant, async () => {
        const snapshot = memory.snapshotsHeld(tenant)?.get(name)
        if (!snapshot) return undefined
        await persist({ type: 'deleteSnapshot', tenant, name })
        memory.snapshotsHeld(tenant)?.delete(name)
        return infoOf(name, snapshot)
      })
    },

    async tenants() {
      const held = registry.list().map(({ tenant, written, pinned, calls }) => ({ key: tenant, calls, kept: written || pinned, created: seedSpecs.has(tenant) }))
      if (!remote) return held
      const elsewhere = (await remote.tenants()).filter(({ tenant }) => !registry.has(tenant))
      return [...held, ...elsewhere.map(({ tenant, created }) => ({ key: tenant, calls: 0, kept: true, created }))]
    },

    keepKeyRecord(tenant, record, keep) {
      return persist({ type: 'keyRecord', tenant, record, keep })
    },

    savedKeyRecords() {
      const records = savedKeyRecords
      savedKeyRecords = []
      return records
    },

    async health() {
      return { kind: backend?.kind ?? 'memory', reachable: (await backend?.reachable?.()) ?? true }
    },

    async close() {
      await Promise.all([...queues.values()])
      await backend?.close()
    },
  }
  return store
}
