import type { MaybePromise } from '../../lib/maybe-promise.ts'
import type { KeyedWrite } from '../../store/store.ts'

/** What a key's fingerprint covers: method, path and the body's bytes as sent (docs/behaviour.md §4). */
export interface KeyedRequest {
  method: string
  path: string
  body: Buffer | undefined
}

/** A keyed call under way, its record open: what `finish` or `abandon` closes. Its fields are the adapter's. */
export interface Recording {
  readonly kind: 'proceed'
}

export type Outcome = Recording | { kind: 'replay'; status: number; body: unknown }

/**
 * The port of the idempotency records (docs/behaviour.md §4): per tenant, kept 24 hours and
 * bounded. `begin` answers a replay, opens a record, or throws the documented 400, 409 or 422.
 * `IdempotencyRecords` is the in-memory adapter (with `--db`, it also hands finished records to
 * the store); `RedisIdempotency` keeps them in Redis, shared by every instance.
 */
export interface IdempotencyPort {
  /** Bytes its records hold in this process, over every tenant (none when they are kept elsewhere). */
  readonly heldBytes?: number
  begin(tenant: string, key: string, request: KeyedRequest, now: number): MaybePromise<Outcome>
  /**
   * For a call that may write: what makes its record, with an answer of `status`, from the
   * result of the write, so that the store stores both in one unit (Store.transact's `recordOf`);
   * undefined when the records are not stored (in memory). A record stored so is not stored
   * again by `finish`.
   */
  recordOfWrite(recording: Recording, status: number): ((result: unknown) => KeyedWrite) | undefined
  /**
   * Keeps the answer (its body as JSON) for replay, or forgets the key so that a retry gets a fresh
   * answer; a promise when the record is being stored, which the answer waits for.
   */
  finish(recording: Recording, status: number, json: string): Promise<void> | undefined
  /** Forgets a key whose call got no answer of its own (forced, injected or dropped). */
  abandon(recording: Recording): void
  /** The tenant's records count as stored at `now`: its clock went back (docs/behaviour.md §8). */
  restamp(tenant: string, now: number): MaybePromise<void>
  /** Forgets every record of the tenant (a reset, a release in memory). */
  forget(tenant: string): MaybePromise<void>
  /** Ends what the adapter runs in the background. */
  close?(): void
}
