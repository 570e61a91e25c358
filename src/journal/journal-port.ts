import type { MaybePromise } from '../lib/maybe-promise.ts'

type AdminSchemas = import('../contract/generated/admin-types.ts').components['schemas']
export type JournalEntry = AdminSchemas['JournalEntry']

/**
 * A call as the routes report it: the URL as sent (its query is parsed when the entry is read),
 * and the request's headers as node read them (`rawHeaders`), redacted when the entry is shown.
 */
export type JournalCall = Omit<JournalEntry, 'id' | 'query' | 'headers' | 'truncated'> & {
  url: string
  rawHeaders?: readonly string[]
  /** The records the answer depended on, as they were just before the call (docs/behaviour.md §9), serialized when shown. */
  state?: ProviderState
}

/**
 * A call's provider state not yet serialized: the records it read, kept by reference (a record is
 * never changed in place), so that a journal in memory makes their JSON only when an entry is shown
 * with its state, rather than on every call.
 */
export interface ProviderState {
  /** `{"<collection>":[<record>,…],…}`. */
  json(): string
  /** `json().length`, without making the text. */
  jsonLength(): number
}

/** An entry with its call's `state` (JournalCall), as the Pact export reads it. */
export type StatedEntry = JournalEntry & { state?: string }

export interface RecordOptions {
  /** The call's idempotency key: never shown, in any body of the entry. */
  secret?: string
  responseText?: string
}

/** The query parameters of `GET /__admin/requests`. */
export type JournalFilter = NonNullable<import('../contract/generated/admin-types.ts').operations['listRequests']['parameters']['query']>

/** A kept call as its listeners get it: its id, and the entry as one line of JSON (what the admin API shows). */
export interface JournalEvent {
  id: number
  json: string
}

export type JournalListener = (event: JournalEvent) => void

export interface SubscribeOptions {
  /** False: entries without their bodies (and `truncated`), for a listener that shows only the call. */
  bodies?: boolean
  /**
   * Called once the subscription is in place (entries recorded from then on, by any instance,
   * reach the listener), never before `subscribe` returns, and not after it is stopped.
   */
  ready?: () => void
  /**
   * Called when the journal ends the subscription itself, to give its place to another key's
   * stream (docs/behaviour.md §6), with why; the subscription is stopped already.
   */
  closed?: (reason: string) => void
}

/**
 * The port of the request journal: the last calls of each tenant, bounded, with a live feed.
 * `record` is fire-and-forget (an adapter reports its own failures, it never rejects into the
 * answer's path). `RequestJournal` is the in-memory adapter, `RedisJournal` the one shared by the
 * instances on one Redis.
 */
export interface JournalPort {
  record(tenant: string, call: JournalCall, options?: RecordOptions): void
  /** With `states`, each entry carries its call's `state` (StatedEntry). */
  list(tenant: string, filter?: JournalFilter, states?: boolean): MaybePromise<StatedEntry[]>
  /** How many entries were removed. */
  clear(tenant: string): MaybePromise<number>
  /** Calls `listener` with each entry kept from now on; answers the function that stops it, or undefined at the bound. */
  subscribe(tenant: string, listener: JournalListener, options?: SubscribeOptions): (() => void) | undefined
  /** Ends what the adapter opened itself (not the connection it was given). */
  close?(): Promise<void>
}
