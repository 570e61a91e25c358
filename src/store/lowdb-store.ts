import type { TenantState } from './records.ts'
import { healthOf, isShared, NOTHING_SAVED, type StoreBackend } from './store-backend.ts'
import { VersionConflict } from './shared/shared-tenants.ts'
import type { SeedSpec, StateCounts, Store } from './store.ts'
import { forgetOldSeeds, keepLast, memoryBudget } from './upkeep/memory-budget.ts'
import { averagesOf, withBytes } from './memory/held-bytes.ts'
import { countsOf, tenantDataFromState, tenantDataInSlices, stateFromTenantData, type TenantData } from './memory/tenant-data.ts'
import { TenantMemory } from './memory/tenant-memory.ts'
import { snapshotMethods } from './tenant-parts/snapshot-methods.ts'
import { importStateMethod } from './tenant-parts/import-state.ts'
import { keyRecordMethods } from './tenant-parts/key-record-methods.ts'
import { clockMethods } from './tenant-parts/clock-methods.ts'
import { faultMethods } from './tenant-parts/fault-methods.ts'
import { PendingTransaction } from './memory/tenant-transaction.ts'
import { tenantExpiry } from './upkeep/tenant-expiry.ts'
import type { SourceParts, TenantSource } from './memory/tenant-source.ts'
import { localSource } from './memory/local-source.ts'
import { sharedSource } from './shared/shared-source.ts'
import { tenantQueues } from './upkeep/tenant-queues.ts'

export interface LowdbStoreOptions {
  /** The seeded records every tenant starts from (and returns to on reset). */
  seed: TenantState
  maxTenants: number
  /** Makes the seed of a tenant created with options of its own. */
  seedFor: (spec: SeedSpec) => Promise<TenantState>
  /** Where every change is made durable before it is applied; in memory alone when absent. */
  backend?: StoreBackend | undefined
  /** Told of each tenant the store lets go of: released from memory at the bound, or `deleted` too (expired, or reset with all). */
  onRelease?: (tenant: string, how: { deleted: boolean }) => void
  /** A stored tenant not called for this long is deleted (`--tenant-ttl`); 0 or absent: never. */
  tenantTtlMs?: number | undefined
  /** Bytes held for the tenants at most (`--memory-budget`, docs/behaviour.md §3); absent: no bound. */
  memoryBudget?: number | undefined
  /** The counts a seed's options make (seed-options.ts), known before it is made. */
  countsOfSeed?: ((spec: SeedSpec) => StateCounts) | undefined
}

/**
 * The store port on lowdb's Low<StoreData> in memory (tenant-memory.ts): the read path, with no
 * I/O. The local store and the shared store are this one store over two sources of its tenants,
 * chosen here once: the local one (memory/local-source.ts: in memory alone, or each change stored
 * first in a file this process holds), or the shared one (shared/shared-source.ts: memory a cache
 * of the tenants several processes share, brought up to date before each use).
 */
export async function createLowdbStore(options: LowdbStoreOptions): Promise<Store> {
  const { backend } = options
  return storeOver(options, isShared(backend) ? sharedSource(backend) : localSource(backend))
}

/** The store over the tenants it holds in memory, whichever source they come from and go to. */
async function storeOver(options: LowdbStoreOptions, sourceOf: (parts: SourceParts) => TenantSource): Promise<Store> {
  const { backend } = options
  const memory = new TenantMemory(tenantDataFromState(options.seed), options.maxTenants, options.seedFor, averagesOf(options.seed), options.countsOfSeed)
  const budget = options.memoryBudget ?? Number.POSITIVE_INFINITY
  const { registry, seedSpecs, shared } = memory
  const saved = backend ? await backend.load() : NOTHING_SAVED
  const queues = tenantQueues()
  const { serialized, idle } = queues
  const nextSeq = ((last) => () => ++last)(saved.maxSeq)
  const source = sourceOf({ memory, saved, serialized, idle, nextSeq, room: (tenant, next) => budgeted.makeRoom(tenant, memory.growthIf(tenant, { data: next }), 'Change') })
  const { current, write: persist, peek: stored } = source

  /** A change of the tenant, after its earlier ones. */
  const changing = <T>(tenant: string, attempt: () => Promise<T>): Promise<T> => serialized(tenant, () => source.attempt(tenant, attempt))

  /** Marks the tenant used (a call of the API when `call`), dropping another to make room if need be; true when it is new. */
  const admit = (tenant: string, call: boolean): boolean => {
    const { created, evicted } = registry.admit(tenant, call)
    if (evicted !== undefined) release(evicted, false)
    if (created) keepLast(seedSpecs, tenant)
    return created
  }

  const budgeted = memoryBudget({ memory, budget, idle, release: (tenant) => release(tenant, false) })

  /** Lets go of the tenant's memory (it comes back from its seed or its store); `deleted`: its store forgot it too. */
  const release = (tenant: string, deleted: boolean): void => {
    registry.remove(tenant)
    memory.drop(tenant)
    queues.forget(tenant)
    calledAt.delete(tenant)
    clocks.release(tenant, deleted)
    source.forget(tenant, deleted)
    if (deleted) seedSpecs.delete(tenant)
    options.onRelease?.(tenant, { deleted })
    // With a store the options are stored; in memory alone they are all that brings the tenant back.
    if (!source.durable) forgetOldSeeds(seedSpecs, (kept) => registry.has(kept))
  }

  /** Brings the records of a tenant just admitted (`created`: new to memory) into memory. */
  const held = async (tenant: string, created: boolean): Promise<void> => {
    // Awaited only when there is something to wait for: every call opens its tenant.
    const pending = source.enter(tenant, created)
    if (pending) await pending
  }

  /** A change is about to be made: it is made to a tenant the store holds, and loaded. */
  const holdForChange = (tenant: string): Promise<void> | undefined => {
    touch(tenant)
    return registry.has(tenant) ? source.loaded(tenant) : held(tenant, admit(tenant, false))
  }

  /**
   * Runs `work` on the tenant's records after its pending writes. A tenant the store does not hold
   * reads as the shared seed, at once, and stays unheld: looking costs nothing (docs/behaviour.md §3).
   */
  const reading = <T>(tenant: string, work: (data: TenantData) => T, ofCall = false): Promise<T> => {
    if (registry.has(tenant)) return source.read(tenant, () => work(memory.dataOf(tenant)), ofCall)
    if (stored) return stored(tenant).then(({ data }) => work(data))
    // A created tenant released in memory alone reads as its own seed, made for the read and not kept.
    const spec = seedSpecs.get(tenant)
    if (spec) return memory.seedData(spec).then(work)
    return Promise.resolve().then(() => work(shared))
  }

  /** A tenant whose records are in memory, open for a call that ends with `end`. */
  const opened = (tenant: string, end: () => void): (() => void) => {
    touch(tenant)
    return end
  }

  const { touch, calledAt, sweeping } = tenantExpiry({ backend, ttlMs: options.tenantTtlMs ?? 0, release: (tenant) => release(tenant, true) })

  const clocks = clockMethods({ memory, saved, source, shared: isShared(backend), serialized, holdForChange, changing, persist })
  const faults = faultMethods({ memory, source, shared: isShared(backend), serialized, idle, holdForChange, changing, persist })
  const snapshots = snapshotMethods({ memory, registry, stored, serialized, current, holdForChange, changing, persist, room: budgeted.makeRoom })
  const importState = importStateMethod({ memory, holdForChange, changing, persist, budget, nextSeq, room: budgeted.makeRoom })

  const store: Store = {
    open(tenant) {
      let end: (() => void) | undefined
      try {
        const created = admit(tenant, true)
        // In flight from now: no other key's arrival releases it while its records load.
        end = registry.begin(tenant)
        // Every call opens its tenant: waited for only when its records are on their way.
        const pending = source.enter(tenant, created)
        if (pending === undefined) return Promise.resolve(opened(tenant, end))
        const ending = end
        return pending.then(
          () => opened(tenant, ending),
          (error: unknown) => {
            ending()
            throw error
          },
        )
      } catch (error) {
        end?.()
        return Promise.reject(error)
      }
    },

    read(tenant, work) {
      return reading(tenant, (data) => work(new PendingTransaction(data)), true)
    },

    transact: source.transact,

    exportState(tenant) {
      return reading(tenant, stateFromTenantData)
    },

    importState,

    async createTenant(tenant, spec) {
      const exists = () => registry.has(tenant) || seedSpecs.has(tenant)
      if (exists() || (await source.isStored(tenant))) return undefined
      // Room for it before it is made: its seed's counts say what it will hold.
      const bytes = memory.bytesOfSeed(spec)
      budgeted.makeRoom(tenant, bytes, 'Tenant')
      const seed = withBytes(await tenantDataInSlices(await options.seedFor(spec)), bytes)
      // With a shared backend, one another process created or wrote exists too; and once it answered,
      // one this process made meanwhile.
      if (exists() || (await source.takenElsewhere(tenant)) || exists()) return undefined
      // Others may have grown while it was made.
      budgeted.makeRoom(tenant, bytes, 'Tenant')
      admit(tenant, false)
      registry.markCreated(tenant)
      touch(tenant)
      try {
        await persist({ type: 'createTenant', tenant, seed: { options: spec } })
      } catch (error) {
        registry.remove(tenant)
        source.forget(tenant, false)
        if (error instanceof VersionConflict) return undefined
        throw error
      }
      memory.created(tenant, spec, seed)
      return countsOf(seed)
    },

    async reset(tenant) {
      // A tenant the store does not hold is its seed already (a created one is always held), unless it is stored: released, or written by another process.
      if (!registry.has(tenant)) {
        if (!(await source.isStored(tenant))) return
        await holdForChange(tenant)
      }
      return changing(tenant, async () => {
        const seed = await memory.seedOf(tenant)
        await persist({ type: 'replace', tenant, rows: [] }, undefined, { type: 'forgetKeyRecords', tenant })
        memory.apply(tenant, seed)
        memory.keys.forget(tenant)
      })
    },

    async resetAll() {
      const everywhere = (await source.elsewhere()).map(({ tenant }) => tenant)
      const all = [...new Set([...registry.keys(), ...everywhere])]
      await Promise.all(all.map((tenant) => store.reset(tenant)))
      // Released, but for created tenants and, in memory alone, the ones holding snapshots (they stay).
      const dropped: string[] = []
      for (const tenant of all) {
        if (!registry.has(tenant) || registry.isCreated(tenant)) continue
        const snapshotsKept = (memory.snapshotsHeld(tenant)?.size ?? 0) > 0
        if (!source.durable && snapshotsKept) continue
        if (!snapshotsKept) dropped.push(tenant)
        release(tenant, true)
      }
      // With a shared backend, a tenant with nothing left to keep (no snapshot, no seed of its own) is no longer stored.
      await source.dropTenants(dropped)
    },

    ...snapshots,
    released: () => registry.released,
    memory: budgeted.memory,
    makeRoom: budgeted.makeRoom,

    async tenants() {
      const held = memory.heldTenants()
      const elsewhere = (await source.elsewhere()).filter(({ tenant }) => !registry.has(tenant))
      return [...held, ...elsewhere.map(({ tenant, created }) => ({ key: tenant, calls: 0, kept: true, created }))]
    },

    ...keyRecordMethods({ memory, source, shared: isShared(backend), stored: backend !== undefined, serialized, holdForChange, changing, persist }),
    ...clocks.port,
    ...faults,
    health: () => healthOf(backend),

    async close() {
      clearInterval(sweeping)
      await queues.settled()
      await backend?.close()
    },
  }
  return store
}
