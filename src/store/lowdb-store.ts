import { Low, Memory } from 'lowdb'
import { overlaid, overlaidTenant, putOver, rowsOfPut, rowsOfState } from './overlay.ts'
import type { TenantState } from './records.ts'
import { isShared, type Change, type SavedStore, type SavedTenant, type StoreBackend, type TenantSeed } from './store-backend.ts'
import { StoreWriteFailed, TenantLimitReached, type KeyedWrite, type KeyRecord, type SeedSpec, type SnapshotInfo, type Store } from './store.ts'
import { countsOf, tenantDataFromState, stateFromTenantData, type TenantData } from './tenant-data.ts'
import { TenantRegistry } from './tenant-registry.ts'
import { PendingTransaction } from './tenant-transaction.ts'
import { readBatches } from './read-batches.ts'
import { reached } from './redis-connection.ts'

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
/** Conflicts one change may meet (other processes writing the tenant) before it is given up as failed. */
const MAX_TRIES = 1000

/** Another process changed the tenant first: the change is made again over the tenant as it now stands. */
class VersionConflict extends Error {}

/**
 * The store port on lowdb's Low<StoreData> in memory: the read path, with no I/O. With a backend,
 * each change is first stored there (store-backend.ts) and applied here only once durable; the
 * tenants an earlier run stored are made again from their seed and rows on first use.
 *
 * With a backend several processes share (SharedBackend), memory is a cache of the tenants this
 * process serves: before each use of a tenant, what other processes changed is replayed (one
 * round trip); each change is written over the version held, and made again over the tenant as it
 * then stands when another process wrote first, so that no client ever sees the conflict.
 */
export async function createLowdbStore(options: LowdbStoreOptions): Promise<Store> {
  const { backend } = options
  const remote = isShared(backend) ? backend : undefined
  /** With a shared backend: the version of each tenant held in memory. */
  const versions = new Map<string, number>()
  const shared = tenantDataFromState(options.seed)
  const db = new Low<StoreData>(new Memory<StoreData>(), { tenants: new Map(), snapshots: new Map(), seeds: new Map() })
  const saved = backend ? await backend.load() : NOTHING_SAVED
  let savedKeyRecords = saved.keyRecords
  let lastSeq = saved.maxSeq
  const nextSeq = () => ++lastSeq
  const registry = new TenantRegistry(options.maxTenants)
  /** Tenants of an earlier run not yet made again in memory. */
  const unread = new Map<string, SavedTenant>(saved.tenants)
  const seedSpecs = new Map<string, TenantSeed>()
  for (const [tenant, entry] of saved.tenants) {
    registry.restore(tenant, { written: true, pinned: entry.seed !== undefined || entry.snapshots.length > 0 })
    if (entry.seed) seedSpecs.set(tenant, entry.seed)
  }
  const loading = new Map<string, Promise<void>>()
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

  /** The tenant's seed: the shared one, or its own, made from its options on first use. */
  const seedOf = async (tenant: string): Promise<TenantData> => {
    const made = db.data.seeds.get(tenant)
    if (made) return made
    const spec = seedSpecs.get(tenant)
    if (!spec) return shared
    const data = await seedData(spec)
    db.data.seeds.set(tenant, data)
    return data
  }

  /** A seed's records: the shared seed's, or made from a seed of its own. */
  const seedData = async (spec: TenantSeed | undefined): Promise<TenantData> =>
    spec === undefined ? shared : tenantDataFromState('state' in spec ? spec.state : await options.seedFor(spec.options))

  /** Makes a tenant of an earlier run again: its seed, its rows over it, its snapshots. */
  const load = async (tenant: string): Promise<void> => {
    const entry = unread.get(tenant)
    const seed = await seedOf(tenant)
    if (db.data.tenants.has(tenant)) return
    const { data, snapshots } = overlaidTenant(seed, entry)
    db.data.tenants.set(tenant, data)
    if (snapshots.size > 0) db.data.snapshots.set(tenant, snapshots)
    unread.delete(tenant)
  }

  /** Resolves once the tenant's records are in memory. */
  const loaded = (tenant: string): Promise<void> | undefined => {
    if (db.data.tenants.has(tenant)) return undefined
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
      if (remote) await writeShared(change, keyed?.record)
      else await backend.write(keyed ? [change, { type: 'keyRecord', tenant: change.tenant, ...keyed }] : [change])
    } catch (error) {
      if (error instanceof VersionConflict || error instanceof TenantLimitReached) throw error
      throw new StoreWriteFailed(error)
    }
  }

  /** Writes a tenant's change over the version held (idempotency records are the records' Redis adapter's, but one written with its change). */
  const writeShared = async (change: Change, record?: KeyRecord): Promise<void> => {
    if (change.type === 'keyRecord') return
    const answer = await remote!.writeAt(change.tenant, versions.get(change.tenant) ?? 0, change, record)
    if (answer === 'conflict') throw new VersionConflict()
    versions.set(change.tenant, answer)
  }

  /** A tenant stored in the shared backend, made in memory: its seed, its records and its snapshots. */
  const madeOf = async (saved: SavedTenant | undefined) => {
    const seed = await seedData(saved?.seed)
    return { seed, ...overlaidTenant(seed, saved) }
  }

  /** A held tenant brought up to the shared backend's version: what others changed replayed, or the tenant read again. */
  const sync = async (tenant: string): Promise<void> => {
    const update = await reached(remote!.since(tenant, versions.get(tenant) ?? -1))
    if ('changes' in update) {
      for (const change of update.changes) await replay(tenant, change)
    } else {
      const { seed, data, snapshots } = await madeOf(update.tenant)
      if (update.tenant?.seed) seedSpecs.set(tenant, update.tenant.seed)
      else seedSpecs.delete(tenant)
      db.data.seeds.set(tenant, seed)
      db.data.tenants.set(tenant, data)
      db.data.snapshots.set(tenant, snapshots)
      if (update.tenant) registry.markWritten(tenant)
      if (update.tenant?.seed || snapshots.size > 0) registry.pin(tenant)
    }
    versions.set(tenant, update.version)
  }

  /** Applies to memory a change another process stored. */
  const replay = async (tenant: string, change: Change): Promise<void> => {
    switch (change.type) {
      case 'put':
        return apply(tenant, putOver(dataOf(tenant), change.rows))
      case 'replace':
        return apply(tenant, overlaid(await seedOf(tenant), change.rows))
      case 'createTenant':
        seedSpecs.set(tenant, change.seed)
        db.data.seeds.delete(tenant)
        db.data.tenants.set(tenant, await seedOf(tenant))
        return registry.pin(tenant)
      case 'saveSnapshot':
        return keepSnapshot(tenant, change.name, { data: dataOf(tenant), createdAt: change.createdAt })
      case 'restoreSnapshot': {
        const snapshot = db.data.snapshots.get(tenant)?.get(change.name)
        return snapshot && apply(tenant, snapshot.data)
      }
      case 'deleteSnapshot':
        return void db.data.snapshots.get(tenant)?.delete(change.name)
      case 'keyRecord':
        return
    }
  }

  const keepSnapshot = (tenant: string, name: string, snapshot: Snapshot) => {
    const snapshots = snapshotsOf(tenant)
    snapshots.delete(name)
    snapshots.set(name, snapshot)
    // A tenant holding snapshots is never dropped to make room for another.
    registry.pin(tenant)
  }

  /** The held tenant's records as they stand: loaded, and with a shared backend, up to its version there. */
  const current = (tenant: string): Promise<void> | undefined => (remote ? sync(tenant) : loaded(tenant))

  /** A change of the tenant, after its earlier ones; made again over the tenant as it stands when another process wrote first. */
  const changing = <T>(tenant: string, attempt: () => Promise<T>): Promise<T> =>
    serialized(tenant, async () => {
      if (!remote) {
        await loaded(tenant)
        return attempt()
      }
      return attemptShared(tenant, attempt)
    })

  /**
   * A change over the tenant as this process holds it, with no round trip first: a write is
   * stored only if the tenant has not moved on (else it is read again and the change made again);
   * an attempt that wrote nothing holds once a sync finds the tenant where it was.
   */
  const attemptShared = async <T>(tenant: string, attempt: () => Promise<T>): Promise<T> => {
    let behind = !versions.has(tenant)
    for (let tries = 1; tries <= MAX_TRIES; tries++) {
      if (behind) await sync(tenant)
      const before = versions.get(tenant)
      try {
        const result = await attempt()
        if (versions.get(tenant) !== before) return result
        await sync(tenant)
        if (versions.get(tenant) === before) return result
        behind = false
      } catch (error) {
        if (!(error instanceof VersionConflict)) throw error
        behind = true
      }
    }
    throw new StoreWriteFailed(new Error(`${MAX_TRIES} conflicting writes of one tenant in a row`))
  }

  /** Applies a change already stored. */
  const apply = (tenant: string, next: TenantData) => {
    db.data.tenants.set(tenant, next)
    registry.markWritten(tenant)
  }

  /** Runs `task` after every earlier task of this tenant has settled. */
  const serialized = <T>(tenant: string, task: () => Promise<T>): Promise<T> => {
    const run = (queues.get(tenant) ?? Promise.resolve()).then(task)
    queues.set(tenant, run.catch(() => undefined))
    return run
  }

  /** Marks the tenant used (a call of the API when `call`), dropping another to make room if need be; true when it is new. */
  const admit = (tenant: string, call: boolean): boolean => {
    const { created, evicted } = registry.admit(tenant, call)
    if (evicted !== undefined) {
      db.data.tenants.delete(evicted)
      db.data.snapshots.delete(evicted)
      queues.delete(evicted)
      versions.delete(evicted)
    }
    return created
  }

  /** Makes the store hold the tenant, its records in memory. */
  const hold = async (tenant: string, call: boolean): Promise<void> => {
    const created = admit(tenant, call)
    if (remote) return created ? enter(tenant) : undefined
    if (created && !unread.has(tenant) && !seedSpecs.has(tenant)) return void db.data.tenants.set(tenant, shared)
    // Awaited only when there is something to wait for: every call opens its tenant.
    const pending = loaded(tenant)
    if (pending) await pending
  }

  /** A tenant new to this process, with a shared backend: within the bound over every process, and read from there. */
  const enter = async (tenant: string): Promise<void> => {
    try {
      if (!(await reached(remote!.admits(tenant)))) throw new TenantLimitReached(options.maxTenants)
      await serialized(tenant, () => sync(tenant))
    } catch (error) {
      registry.remove(tenant)
      throw error
    }
  }

  /** A tenant this process does not hold, as the shared backend has it, left unheld. */
  const peek = async (tenant: string) => {
    const update = await reached(remote!.since(tenant, -1))
    return madeOf('tenant' in update ? update.tenant : undefined)
  }

  /** A change is about to be made: it is made to a tenant the store holds, and loaded. */
  const holdForChange = (tenant: string): Promise<void> | undefined => (registry.has(tenant) ? loaded(tenant) : hold(tenant, false))

  /**
   * Runs `work` on the tenant's records after its pending writes. A tenant the store does not hold
   * reads as the shared seed, at once, and stays unheld: looking costs nothing (docs/behaviour.md §3).
   */
  const reading = <T>(tenant: string, work: (data: TenantData) => T): Promise<T> =>
    registry.has(tenant)
      ? remote
        ? readShared(tenant, () => work(dataOf(tenant)))
        : serialized(tenant, async () => {
            await loaded(tenant)
            return work(dataOf(tenant))
          })
      : remote
        ? peek(tenant).then(({ data }) => work(data))
        : Promise.resolve().then(() => work(shared))

  const readShared = readBatches(serialized, (tenant) => sync(tenant))

  /** The tenant's snapshots as they stand, without making an empty list for a tenant that has none. */
  const snapshotsNow = async (tenant: string): Promise<ReadonlyMap<string, Snapshot> | undefined> => {
    if (!registry.has(tenant)) return remote ? (await peek(tenant)).snapshots : undefined
    await serialized(tenant, async () => current(tenant))
    return db.data.snapshots.get(tenant)
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
      return changing(tenant, async () => {
        const data = dataOf(tenant)
        const tx = new PendingTransaction(data)
        const result = work(tx)
        const next = tx.commit()
        if (!next) return result
        if (backend) await persist({ type: 'put', tenant, rows: rowsOfPut(data, tx.put(), nextSeq) }, recordOf?.(result))
        apply(tenant, next)
        return result
      })
    },

    exportState(tenant) {
      return reading(tenant, stateFromTenantData)
    },

    async importState(tenant, state) {
      await holdForChange(tenant)
      return changing(tenant, async () => {
        const seed = await seedOf(tenant)
        const rows = rowsOfState(seed, state, nextSeq)
        await persist({ type: 'replace', tenant, rows })
        apply(tenant, overlaid(seed, rows))
      })
    },

    async createTenant(tenant, spec) {
      if (registry.has(tenant)) return undefined
      const seed = tenantDataFromState(await options.seedFor(spec))
      // With a shared backend, one another process created or wrote exists too.
      if (registry.has(tenant) || (remote && (await reached(remote.since(tenant, -1))).version > 0)) return undefined
      admit(tenant, false)
      registry.pin(tenant)
      try {
        await persist({ type: 'createTenant', tenant, seed: { options: spec } })
      } catch (error) {
        registry.remove(tenant)
        versions.delete(tenant)
        if (error instanceof VersionConflict) return undefined
        throw error
      }
      seedSpecs.set(tenant, { options: spec })
      db.data.seeds.set(tenant, seed)
      db.data.tenants.set(tenant, seed)
      return countsOf(seed)
    },

    async reset(tenant) {
      // A tenant the store does not hold is its seed already (a created one is always held), unless another process wrote it.
      if (!registry.has(tenant)) {
        if (!remote || (await reached(remote.since(tenant, -1))).version === 0) return
        await holdForChange(tenant)
      }
      return changing(tenant, async () => {
        const seed = await seedOf(tenant)
        await persist({ type: 'replace', tenant, rows: [] })
        apply(tenant, seed)
      })
    },

    async resetAll() {
      const everywhere = remote ? await remote.tenants() : []
      await Promise.all([...new Set([...registry.keys(), ...everywhere])].map((tenant) => store.reset(tenant)))
    },

    async saveSnapshot(tenant, name, at) {
      await holdForChange(tenant)
      return changing(tenant, async () => {
        const snapshot = { data: dataOf(tenant), createdAt: at.toISOString() }
        await persist({ type: 'saveSnapshot', tenant, name, createdAt: snapshot.createdAt })
        keepSnapshot(tenant, name, snapshot)
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
        const snapshot = db.data.snapshots.get(tenant)?.get(name)
        if (!snapshot) return undefined
        await persist({ type: 'restoreSnapshot', tenant, name })
        apply(tenant, snapshot.data)
        return infoOf(name, snapshot)
      })
    },

    async deleteSnapshot(tenant, name) {
      if (!(await snapshotOf(tenant, name))) return undefined
      await holdForChange(tenant)
      return changing(tenant, async () => {
        const snapshot = db.data.snapshots.get(tenant)?.get(name)
        if (!snapshot) return undefined
        await persist({ type: 'deleteSnapshot', tenant, name })
        db.data.snapshots.get(tenant)?.delete(name)
        return infoOf(name, snapshot)
      })
    },

    tenants() {
      return registry.list().map(({ tenant, written, pinned, calls }) => ({ key: tenant, calls, kept: written || pinned, created: seedSpecs.has(tenant) }))
    },

    keepKeyRecord(tenant: string, record: KeyRecord, keep: number) {
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

const infoOf = (name: string, snapshot: Snapshot): SnapshotInfo => ({ name, createdAt: snapshot.createdAt, counts: countsOf(snapshot.data) })
