import type { KeptClock } from '../clock/clock-setting.ts'
import type { MaybePromise } from '../lib/maybe-promise.ts'
import type { ConnectionPage, ConnectionQuery } from './connection-query.ts'
import type { SeedSpec } from './seed-spec.ts'
import type { FaultsPort } from './tenant-parts/tenant-faults.ts'
import type { StoredChannelConnection, StoredIntegration, StoredMessage, StoredSubscriber, TenantState, TenantWorkflow } from './records.ts'

/** What the service's rules may read of one tenant. */
export interface TenantView {
  subscriber(subscriberId: string): StoredSubscriber | undefined
  /** Every subscriber, in the tenant's order (a search reads them all). */
  subscribers(): Iterable<StoredSubscriber>
  integration(id: string): StoredIntegration | undefined
  integrations(): Iterable<StoredIntegration>
  message(id: string): StoredMessage | undefined
  workflow(workflowId: string): TenantWorkflow | undefined
  /** Whether the tenant has workflows: without, a trigger accepts every name (docs/behaviour.md §11). */
  hasWorkflows(): boolean
  /**
   * The messages `keep` accepts (every one without it), in the order stored (the list and mark-all walk them:
   * docs/behaviour.md §11). Only those count as read (a call's provider state, docs/behaviour.md §9).
   */
  messages(keep?: (message: StoredMessage) => boolean): Iterable<StoredMessage>
  /**
   * One page of the tenant's channel connections (docs/behaviour.md §2.4). An adapter pages its own
   * way; the memory adapter reads its index (connection-page.ts), so a page costs the same at any size.
   */
  connectionPage(query: ConnectionQuery): ConnectionPage
  /** The connection of that `identifier` (unique in a tenant), found by a walk: only its own operations ask. */
  connectionByIdentifier(identifier: string): StoredChannelConnection | undefined
}

export type { ConnectionCriteria, ConnectionPage, ConnectionQuery } from './connection-query.ts'

/** A view that can also replace records; nothing is visible to others until the commit. */
export interface TenantTransaction extends TenantView {
  putSubscriber(record: StoredSubscriber): void
  putIntegration(record: StoredIntegration): void
  putMessage(record: StoredMessage): void
  /** Removes the record (hard deletes are rare: each costs a copy of its collection). */
  deleteSubscriber(subscriberId: string): void
  deleteMessage(id: string): void
  putWorkflow(record: TenantWorkflow): void
  putConnection(record: StoredChannelConnection): void
  deleteConnection(id: string): void
}

export type { SeedFixtures, SeedSpec } from './seed-spec.ts'

/** Where the state is kept, as `GET /__admin/health` names it. */
export type StoreKind = 'memory' | 'sqlite' | 'redis' | 'redis-cluster'

/** Where the state is kept, whether it answers now (and if not, why), and how many tenants the backend stores. */
export interface StoreHealth {
  kind: StoreKind
  reachable: boolean
  stored?: number
  /** Why the store cannot answer, when it cannot: health names it (a Redis Cluster's slots not all served, say). */
  state?: string
}

/** An idempotency record as it is kept: a finished call's answer, replayed to a retry (docs/behaviour.md §4). */
export interface KeyRecord {
  key: string
  method: string
  path: string
  /** The request body's print (the body itself, or its hash). */
  print: string
  status: number
  /** The answer's body as JSON. */
  answer: string
  /** Milliseconds since the epoch. */
  expiresAt: number
}

/**
 * An idempotency record stored with the change it records, in the same unit: both are stored or
 * neither, so a retry after any failure either replays or runs again (docs/behaviour.md §4).
 */
export interface KeyedWrite {
  record: KeyRecord
  /** Only the tenant's newest `keep` records need be kept. */
  keep: number
  /** On a shared backend, the value of the key's in-flight marker, which the write deletes (redis/redis-running-keys.ts). */
  marker?: string | undefined
}

/**
 * The store's ports, one per kind of caller; the store (lowdb-store.ts) implements them all, as
 * `Store`. Tenants are named by their API key. Every promise resolves only once the change is
 * committed (in memory: at once; on disk or in a shared backend: once durable there), and a change
 * that fails to commit (StoreWriteFailed) leaves nothing of itself behind, in memory or in the
 * backend. Reads never wait for I/O: the records are held in memory.
 *
 * Only a call of the API (`open`) or a change makes the store hold a tenant. Reading a tenant it
 * does not hold sees that tenant's seed and leaves it unheld: looking never makes a tenant, nor
 * keeps one from being dropped at the bound (docs/behaviour.md §3).
 */
export interface Store extends RecordsPort, StateAdminPort, SnapshotsPort, KeyRecordsPort, ClocksPort, FaultsPort, LifecyclePort, MemoryPort {}

/** The instance's memory budget (docs/behaviour.md §3): what it holds for its tenants, in estimated bytes. */
export interface MemoryPort {
  memory(): { budget: number; used: number }
  /**
   * Room for `bytes` more held for `tenant`: the least recently used other tenants with no call in
   * flight released until they fit. Throws MemoryBudgetExceeded when they cannot, LargerThanBudget
   * when `bytes` alone pass the budget (upkeep/memory-budget.ts).
   */
  makeRoom(tenant: string, bytes: number, what: string): void
}

/** The records, as the five operations read and change them (src/resources). */
export interface RecordsPort {
  /**
   * A call of the API: makes the tenant held (from the seed, or as stored), marks it used and
   * counts the call; answers the function that ends the call (a tenant with a call under way is
   * never released). Throws TenantLimitReached when every held tenant has a call under way.
   */
  open(tenant: string): Promise<() => void>
  read<T>(tenant: string, work: (view: TenantView) => T): Promise<T>
  /**
   * Runs `work` serialized per tenant; a throw leaves nothing changed. With `recordOf`, a change
   * it commits is stored with the idempotency record made of its result (KeyedWrite).
   */
  transact<T>(tenant: string, work: (tx: TenantTransaction) => T, recordOf?: (result: T) => KeyedWrite): Promise<T>
}

/** A tenant's state as the control plane reads, replaces, creates and resets it. */
export interface StateAdminPort {
  exportState(tenant: string): Promise<TenantState>
  /** Replaces the tenant's records; the caller has validated them. Throws as `open`. */
  importState(tenant: string, state: TenantState): Promise<void>
  /**
   * Creates a tenant with a seed of its own, made from `seed`, and reset to that seed; released at
   * the bounds like any other, its seed options kept so that it comes back from them. Answers its
   * counts, or undefined when the tenant exists already (held, stored, or its seed options kept).
   */
  createTenant(tenant: string, seed: SeedSpec): Promise<StateCounts | undefined>
  /** The tenant's seed again, and no idempotency records stored; its snapshots stay. */
  reset(tenant: string): Promise<void>
  /** Every tenant reset, and released but for the created ones (and, in memory alone, those holding snapshots). */
  resetAll(): Promise<void>
  /**
   * Every tenant held now, most recently used first; with a shared backend, then every tenant with
   * state there that this process does not hold (no calls here).
   */
  tenants(): Promise<TenantInfo[]>
  /** How many tenants this instance released at the bound since it started. */
  released(): number
}

/** A tenant's named snapshots. */
export interface SnapshotsPort {
  /** Keeps the tenant's current records under `name`, replacing an older one of that name; throws as importState. */
  saveSnapshot(tenant: string, name: string, at: Date): Promise<SnapshotInfo>
  listSnapshots(tenant: string): Promise<SnapshotInfo[]>
  /** Puts the tenant back to the snapshot; undefined when there is none of that name. */
  restoreSnapshot(tenant: string, name: string): Promise<SnapshotInfo | undefined>
  deleteSnapshot(tenant: string, name: string): Promise<SnapshotInfo | undefined>
}

/** Idempotency records a tenant keeps at most: its newest (docs/behaviour.md §4). */
export const KEY_RECORDS_KEPT = 1000

/** The tenants' finished idempotency records (§4), each part of its tenant's value, changed as records are (with its write: `recordOf`). */
export interface KeyRecordsPort {
  /** The tenant's record of `key`, expired or not: at once when held here; shared, after its call's sync. */
  keyRecordOf(tenant: string, key: string): MaybePromise<KeyRecord | undefined>
  /** The same, as memory holds it now: inside a transaction, over the tenant's records as they stand. */
  heldKeyRecord(tenant: string, key: string): KeyRecord | undefined
  /** Keeps a finished record (the tenant's newest `keep` stay): a change of the tenant, stored before it holds; in memory alone, at once. */
  keepKeyRecord(tenant: string, record: KeyRecord, keep: number): MaybePromise<void>
  /** Every record of the tenant now expires at `expiresAt` (its clock went back, docs/behaviour.md §8): a change of the tenant. */
  restampKeyRecords(tenant: string, expiresAt: number): MaybePromise<void>
}

/**
 * The tenants' clocks (docs/behaviour.md §8): each is part of its tenant's value, changed as a
 * change of the tenant and stored as its records are (in memory; in the --db file; in Redis, in
 * the tenant's versioned value, replayed by every instance). `undefined`: none kept, the starting clock.
 */
export interface ClocksPort {
  /**
   * The tenant's clock as it stands: at once when held in this process; with a shared backend,
   * after a sync (`ofCall`: the one sent when its call opened the tenant), or read there for a
   * tenant not held.
   */
  clockOf(tenant: string, ofCall?: boolean): MaybePromise<KeptClock | undefined>
  /** The tenant's clock becomes `clock`: a change of the tenant, in its turn, stored before it holds. */
  keepClock(tenant: string, clock: KeptClock | undefined): Promise<void>
  /** Every tenant's clock back to the starting clock (a reset of all). */
  clearClocks(): Promise<void>
  /** The clocks held in this process now (with --db, every one stored by an earlier run): checked at the start. */
  heldClocks(): Iterable<[string, KeptClock]>
}

/** What the server asks of the store as a whole. */
export interface LifecyclePort {
  /** Where the state is kept, whether it can be reached now (a shared backend is asked), and how many tenants it stores (with a backend). */
  health(): Promise<StoreHealth>
  /** Ends the store's hold on its backend (a file's lock); nothing is written afterwards. */
  close(): Promise<void>
}

export interface TenantInfo {
  key: string
  /** Calls of the API it answered since the server started (this process's). */
  calls: number
  /** Has state of its own: written to, created through the admin API, or holding snapshots. */
  kept: boolean
  /** Created through the admin API, from a seed of its own. */
  created: boolean
}

type AdminSchemas = import('../contract/generated/admin-types.ts').components['schemas']
/** How many records of each kind a state holds, as the admin document names them. */
export type StateCounts = AdminSchemas['StateSummary']
export type SnapshotInfo = AdminSchemas['SnapshotInfo']

/** Every held tenant has a call under way (or was created on purpose), so none may be released for a new one. */
export class TenantLimitReached extends Error {
  constructor(readonly maxTenants: number) {
    super(`tenant limit of ${maxTenants} reached and every held tenant has a call under way`)
    this.name = 'TenantLimitReached'
  }
}

/** The store could not be written (a failed disk write) or reached (Redis): nothing was applied, nor acknowledged. */
export class StoreWriteFailed extends Error {
  constructor(readonly cause: unknown) {
    super(`the store failed: ${(cause as Error)?.message ?? String(cause)}`)
    this.name = 'StoreWriteFailed'
  }
}

/** A backend's answer; one that cannot be had (Redis unreachable) is refused as a failed write is: 503, nothing changed. */
export const reached = <T>(asked: Promise<T>): Promise<T> =>
  asked.catch((error: unknown) => {
    throw new StoreWriteFailed(error)
  })

/** A store file that cannot be opened, read or written: the start stops with this one-line message. */
export class StoreFileError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'StoreFileError'
  }
}
