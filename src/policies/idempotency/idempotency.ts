import { AnsweredOtherwise } from '../../answer/answer.ts'
import type { MaybePromise } from '../../lib/maybe-promise.ts'
import type { KeyedWrite, KeyRecord, KeyRecordsPort } from '../../store/store.ts'
import type { Fingerprint, RunningCall, RunningKeysPort } from './running-keys.ts'
import { answerBody, answerText, bodyPrint, checkKeyLength, isReplayed, keyInProgress, keyReused, RETENTION_MS } from './key-rules.ts'

/** What a key's fingerprint is made of: method, path and the body's bytes as sent (docs/behaviour.md §4). */
export interface KeyedRequest {
  method: string
  path: string
  body: Buffer | undefined
}

/** A keyed call under way, its marker held: what `finish` or `abandon` closes. */
export interface Recording extends RunningCall {
  readonly kind: 'proceed'
  /** When its record expires, in the tenant's time. */
  readonly expiresAt: number
  /** Stored by the store with the call's write: nothing left for `finish` to store. */
  stored: boolean
  /** Answered with another call's record, met in its write (IdempotencyOptions's `shared`): nothing of its own to store. */
  replayed: boolean
}

export type Outcome = Recording | { kind: 'replay'; status: number; body: unknown }

export interface IdempotencyOptions {
  /** Where the finished records are: the store, each tenant's part of its value. */
  store: KeyRecordsPort
  /** The markers of the calls under way, beside the value. */
  running: RunningKeysPort
  /** Records kept per tenant: its newest. */
  keep: number
  /** Whether the store stores changes (a file, Redis): then a write's record is stored with it, in one unit. */
  stored: boolean
  /** Whether several processes share the tenants (Redis): then another's record may arrive while a call runs. */
  shared: boolean
}

/**
 * The idempotency rules (docs/behaviour.md §4) as functions over the tenants' values: a finished
 * record is part of its tenant's value in the store, read with it and changed by its changes (with
 * the write it records, in one unit); a call under way holds a marker beside it (RunningKeysPort).
 */
export class Idempotency {
  constructor(private readonly options: IdempotencyOptions) {}

  /** A replay of the key's answer, or its marker claimed; throws the documented 400, 409 or 422. */
  begin(tenant: string, key: string, { method, path, body }: KeyedRequest, now: number): MaybePromise<Outcome> {
    checkKeyLength(key)
    const { store, running, shared } = this.options
    const print = bodyPrint(body)
    const call: Recording = { kind: 'proceed', tenant, key, method, path, print, expiresAt: now + RETENTION_MS, stored: false, replayed: false, marker: undefined }
    if (!shared) {
      // One process: the record as held, then the marker; nothing comes between them.
      const replay = replayOf(store.keyRecordOf(tenant, key) as KeyRecord | undefined, call, now)
      return replay ?? claimed(call, running.claim(call) as Fingerprint | undefined)
    }
    // The marker is claimed as the record is read, in one trip; a record another process stores
    // after the call's sync is met inside its write (guardOf).
    return Promise.all([running.claim(call), store.keyRecordOf(tenant, key)]).then(([held, record]) => {
      try {
        const replay = replayOf(record, call, now)
        if (replay === undefined) return claimed(call, held)
        if (held === undefined) running.release(call)
        return replay
      } catch (refused) {
        // A 422 for a record of another fingerprint: the marker just claimed goes with it.
        if (held === undefined) running.release(call)
        throw refused
      }
    })
  }

  /**
   * For a call that may write: what makes its record, with an answer of `status`, from the result
   * of the write, so that the store stores both in one unit (Store.transact's `recordOf`).
   * Undefined in memory alone, where `finish` keeps it as cheaply, from the answer's text.
   */
  recordOfWrite(call: Recording, status: number): ((result: unknown) => KeyedWrite) | undefined {
    if (!this.options.stored) return undefined
    return (result) => {
      call.stored = true
      return { record: recordOf(call, status, answerText(result)), keep: this.options.keep, marker: call.marker }
    }
  }

  /**
   * With a shared store, what the call's write checks over the tenant's value as it stands: a
   * record of the key stored meanwhile by another process answers the call (its replay, or the
   * 422), and the write changes nothing.
   */
  guardOf(call: Recording): (() => void) | undefined {
    if (!this.options.shared) return undefined
    return () => {
      const replay = replayOf(this.options.store.heldKeyRecord(call.tenant, call.key), call, call.expiresAt - RETENTION_MS)
      if (replay === undefined) return
      call.replayed = true
      throw new AnsweredOtherwise({ status: replay.status, body: replay.body, headers: { 'Idempotency-Replay': 'true' } })
    }
  }

  /**
   * Keeps the answer (its body as JSON) for replay, or forgets the key so that a retry gets a
   * fresh answer; a promise when the record is being stored, which the answer waits for. The
   * marker goes once the record is stored.
   */
  finish(call: Recording, status: number, json: string): Promise<void> | undefined {
    const { store, running, keep } = this.options
    // A record stored with its write took the marker along; a write that failed (a 503) did not.
    if (call.stored || call.replayed || !isReplayed(status)) return void running.release(call, call.stored && isReplayed(status))
    // Kept before the answer is sent: a retry after a restart is replayed (docs/decisions.md, 2026-11-28).
    const kept = store.keepKeyRecord(call.tenant, recordOf(call, status, json), keep)
    if (!kept) return void running.release(call)
    return kept.finally(() => running.release(call))
  }

  /** Forgets a key whose call got no answer of its own (forced, injected or dropped). */
  abandon(call: Recording): void {
    this.options.running.release(call)
  }

  /** The tenant's records count as stored at `now`: its clock went back (docs/behaviour.md §8). */
  restamp(tenant: string, now: number): MaybePromise<void> {
    return this.options.store.restampKeyRecords(tenant, now + RETENTION_MS)
  }

  close(): void {
    this.options.running.close?.()
  }
}

/** The replay of a record of the key not expired at `now`, the 422 for another fingerprint, or undefined. */
function replayOf(record: KeyRecord | undefined, call: Fingerprint, now: number): { kind: 'replay'; status: number; body: unknown } | undefined {
  if (record === undefined || record.expiresAt <= now) return undefined
  if (!sameFingerprint(record, call)) throw keyReused(record.key)
  return { kind: 'replay', status: record.status, body: answerBody(record.answer) }
}

/** The call, its marker now held; or the 409 (the 422 for another fingerprint) of the call that holds it. */
function claimed(call: Recording, held: Fingerprint | undefined): Recording {
  if (held === undefined) return call
  throw sameFingerprint(held, call) ? keyInProgress(call.key) : keyReused(call.key)
}

const sameFingerprint = (a: Fingerprint, b: Fingerprint): boolean => a.method === b.method && a.path === b.path && a.print === b.print

const recordOf = ({ key, method, path, print, expiresAt }: Recording, status: number, answer: string): KeyRecord => ({ key, method, path, print, status, answer, expiresAt })
