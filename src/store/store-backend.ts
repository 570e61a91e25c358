import type { KeptClock } from '../clock/clock-setting.ts'
import type { TenantState } from './records.ts'
import type { KeyRecord, StoreHealth, StoreKind } from './store.ts'
import type { SeedSpec } from './seed-spec.ts'
import type { TenantFaults } from './tenant-parts/tenant-faults.ts'

/**
 * The write path of the store: the contract a durable backend implements (SQLite; Redis, shared
 * by several processes: SharedBackend below). The in-memory engine (lowdb-store.ts) stays the
 * read path; the backend stores what makes that memory again after a restart, and nothing else.
 *
 * What is stored. The seed options (`SeedSpec`) of the tenants that start from the shared seed, and
 * for each tenant created through the admin API its own; then, per tenant, only its changes over
 * its seed: one row per record that differs, keyed by (tenant, kind, id), holding the record, or
 * null for a seeded record the tenant removed. A tenant that never wrote has no row at all.
 *
 * The order of records is part of the state (GET /__admin/state lists them in it): a tenant's
 * records are its seed's in the seed's order, each replaced in place by its row, then the records
 * its rows add, in the order of their `seq`. A row's `seq` is 0 for a record at its seed's place
 * and above 0 for one added after the seed's (or removed and added again); seqs only grow, over
 * every tenant, so a new one is the largest yet.
 *
 * How a change is stored. `write` stores one or more changes as one unit: all of them or none,
 * and it resolves only once they are durable (they survive a kill of the process at any moment,
 * and with SQLite's `synchronous=FULL` a power loss too). The engine calls it before it changes
 * its memory or answers, and changes nothing when it rejects, so a failed write leaves nothing
 * half-applied anywhere. Changes of one tenant are never in flight together: each waits for the
 * one before. Changes of different tenants may be grouped into one unit.
 */
export interface StoreBackend {
  readonly kind: Exclude<StoreKind, 'memory'>
  /** Whether the backend answers now; a file is always there once opened. */
  reachable?(): Promise<boolean>
  /** What an earlier run stored: read once, when the store starts. */
  load(): Promise<SavedStore>
  write(changes: readonly Change[]): Promise<void>
  /** One tenant as stored (undefined: nothing stored): a tenant released from memory comes back from it. */
  tenant?(tenant: string): Promise<SavedTenant | undefined>
  /** Deletes every tenant not called since `before` (ms since the epoch, as `touch` stored it); answers them. */
  expire?(before: number): Promise<string[]>
  /** How many tenants have state stored. */
  storedTenants?(): Promise<number>
  /** Releases the backend (and its lock); called once, after the last write settled. */
  close(): Promise<void>
}

export const RECORD_KINDS = ['subscribers', 'integrations', 'channelConnections', 'messages', 'workflows'] as const
export type RecordKind = (typeof RECORD_KINDS)[number]

/** One of a tenant's changes over its seed (see StoreBackend). */
export interface OverlayRow {
  kind: RecordKind
  id: string
  /** The record; null: the seeded record of that id is removed. */
  record: object | null
  /**
   * The record's place: 0 at its seed's place, above 0 after the seed's records in that order. In
   * a `put` change, undefined: the place it holds already (its row's seq, or 0 for a new row).
   */
  seq?: number | undefined
}

/** A tenant's seed: made from options, or (a tenant converted from a JSON store file) the records themselves. */
export type TenantSeed = { options: SeedSpec } | { state: TenantState }

export type Change =
  /** Rows written over the tenant's (a transaction's records). */
  | { type: 'put'; tenant: string; rows: readonly OverlayRow[] }
  /** The tenant's rows become exactly these (a state replaced; a reset, with none). */
  | { type: 'replace'; tenant: string; rows: readonly OverlayRow[] }
  /** A tenant with a seed of its own, and no rows yet. */
  | { type: 'createTenant'; tenant: string; seed: TenantSeed }
  /** The snapshot `name` becomes a copy of the tenant's rows now (replacing one of that name, listed last). */
  | { type: 'saveSnapshot'; tenant: string; name: string; createdAt: string }
  /** The tenant's rows become a copy of the snapshot's. */
  | { type: 'restoreSnapshot'; tenant: string; name: string }
  | { type: 'deleteSnapshot'; tenant: string; name: string }
  /** A finished idempotency record (replacing one of the same key); only the tenant's newest `keep` need be kept. */
  | { type: 'keyRecord'; tenant: string; record: KeyRecord; keep: number }
  /** The tenant's clock (docs/behaviour.md §8); undefined: none kept, the starting clock. */
  | { type: 'clock'; tenant: string; clock: KeptClock | undefined }
  /** The tenant's fault rules with their counters (docs/behaviour.md §6); undefined: none. A shared backend's only: --db keeps none (§3). */
  | { type: 'faultRules'; tenant: string; faults: TenantFaults | undefined }
  /** The tenant's idempotency records are gone (a reset). */
  | { type: 'forgetKeyRecords'; tenant: string }
  /** Every idempotency record of the tenant now expires at `expiresAt` (its clock went back). */
  | { type: 'restampKeyRecords'; tenant: string; expiresAt: number }
  /** The tenant was called at `at` (ms since the epoch): what `--tenant-ttl` counts from. */
  | { type: 'touch'; tenant: string; at: number }

export interface SavedSnapshot {
  name: string
  createdAt: string
  rows: OverlayRow[]
}

export interface SavedTenant {
  /** Absent: the shared seed. */
  seed?: TenantSeed
  rows: OverlayRow[]
  /** In the order they were saved. */
  snapshots: SavedSnapshot[]
  /** Its clock, where one is kept (a shared backend's; the --db file's are SavedStore's `clocks`). */
  clock?: KeptClock
  /** Its fault rules, where they are kept (a shared backend's). */
  faults?: TenantFaults
  /** Its finished idempotency records, oldest first (a tenant read whole or alone; none: none kept). */
  keyRecords?: KeyRecord[]
}

export interface SavedStore {
  /** Every tenant with rows, snapshots or a seed of its own. */
  tenants: Map<string, SavedTenant>
  /** The largest seq stored, 0 when none. */
  maxSeq: number
  /** The tenants' clocks, where one was set (a backend that keeps none leaves it out). */
  clocks?: Map<string, KeptClock>
}

/**
 * A backend several processes share (Redis). Each process keeps its engine as a cache of the
 * tenants it serves; every tenant has a version there, raised by each change. Before it answers
 * from a tenant a process asks `since` (one round trip) and replays what it missed; it writes with
 * `writeAt`, which stores the change only if the tenant is still at the version the process holds,
 * so that two processes never both write over the same version (docs/decisions.md). The changes
 * are those of StoreBackend, rows, clock, fault rules, idempotency records and all; a record made
 * by a write is stored with it (`putsAt`).
 * A tenant's transactions that arrive while one is being stored are stored together next
 * (`putsAt`): one script for many writes.
 */
export interface SharedBackend extends StoreBackend {
  /** What changed in the tenant after `version` (-1: nothing held yet), or, when that is no longer kept, the whole tenant. */
  since(tenant: string, version: number): Promise<TenantUpdate>
  /** Stores the tenant's change over `version`; answers the new version, or `conflict` when the tenant is past `version`. */
  writeAt(tenant: string, version: number, change: Change): Promise<number | 'conflict'>
  /**
   * Stores the puts of several transactions of the tenant over `version`, in order, as one unit,
   * each with the idempotency record of the call that made it if any; answers as `writeAt`.
   */
  putsAt(tenant: string, version: number, puts: readonly SharedPut[]): Promise<number | 'conflict'>
  /** Every tenant with state, over every process, and whether it was created with a seed of its own. */
  tenants(): Promise<{ tenant: string; created: boolean }[]>
  /** The tenant's clock as stored, read alone (a tenant this process does not hold). */
  clockOf(tenant: string): Promise<KeptClock | undefined>
  /** The tenant's fault rules as stored, read alone (a tenant this process does not hold). */
  faultRulesOf(tenant: string): Promise<TenantFaults | undefined>
  /** Deletes everything stored of the tenants, and unlists them (a reset of all: nothing of theirs left to keep). */
  dropTenants(tenants: readonly string[]): Promise<void>
}

/** A transaction's rows, and the idempotency record stored with them. */
export interface SharedPut {
  rows: readonly OverlayRow[]
  record?: KeyRecord | undefined
  /** With a record: the tenant keeps its newest `keep`. */
  keep?: number | undefined
  /** With a record: the value of its key's in-flight marker, deleted with the write if it still holds it. */
  marker?: string | undefined
}

export type TenantUpdate =
  | { version: number; changes: Change[] }
  /** The whole tenant; undefined when it has no state (its version is 0). */
  | { version: number; tenant: SavedTenant | undefined }

export const isShared = (backend: StoreBackend | undefined): backend is SharedBackend => backend !== undefined && 'writeAt' in backend

/** What a store without a backend loads at the start. */
export const NOTHING_SAVED: SavedStore = { tenants: new Map(), maxSeq: 0 }

/**
 * The store's health, never a failure: a store that answers PING but not a read (a Redis Cluster
 * whose slots are not all served answers CLUSTERDOWN) cannot answer the API's calls either.
 */
export async function healthOf(backend: StoreBackend | undefined): Promise<StoreHealth> {
  const kind = backend?.kind ?? 'memory'
  try {
    if ((await backend?.reachable?.()) === false) return { kind, reachable: false, state: 'unreachable: no answer to PING' }
    const stored = await backend?.storedTenants?.()
    return { kind, reachable: true, ...(stored === undefined ? {} : { stored }) }
  } catch (error) {
    return { kind, reachable: false, state: `cannot answer: ${String((error as Error)?.message ?? error).split('\n')[0]!.slice(0, 200)}` }
  }
}

/**
 * A change that moves at least this many rows is written in steps, between turns of the event
 * loop (docs/decisions.md, 2026-11-26 and 2026-11-27): one transaction or script of a 50 MB
 * state's 115,000 rows held every other call for over half a second.
 */
export const STEPPED_ROWS = 2_000
