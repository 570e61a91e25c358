import { Lru } from '../../lib/lru.ts'
import type { KeyedWrite, KeyRecord, KeyRecordsPort } from '../../store/store.ts'
import type { IdempotencyPort, KeyedRequest, Outcome, Recording } from './idempotency-port.ts'
import { KeyRecords, type ByteCount } from './key-records.ts'
import { answerBody, answerText, bodyPrint, checkKeyLength, isReplayed, keyInProgress, keyReused, RETENTION_MS } from './key-rules.ts'

export interface IdempotencyLimits {
  /** Keys kept per tenant: the most recent ones. */
  maxPerTenant: number
  /** Over all tenants: the records of the tenant written least recently go first. */
  maxBytes: number
}

/**
 * This adapter's open record: the tenant's records and the record's id, so that closing it needs no
 * lookup. Every Recording handed back here is one this adapter opened, so it reads its own fields.
 */
interface OpenRecord extends Recording {
  readonly tenant: string
  readonly records: KeyRecords
  readonly id: number
  /** Stored by the store with the call's write: `finish` need not hand it to the keeper. */
  stored: boolean
}

export type { KeyedRequest, Outcome, Recording } from './idempotency-port.ts'

/** Tenants whose records are kept at most, as every cache here is bounded in count: the least recent goes first. */
const MAX_TENANTS_KEPT = 10_000

/**
 * Idempotency records per tenant, kept 24 hours, bounded per tenant (oldest dropped), in tenants
 * and in bytes over all tenants, so that neither many keys nor many tenants (store evictions
 * included) grow the memory without bound.
 */
export class IdempotencyRecords implements IdempotencyPort {
  /** Tenants in the order they last recorded a key, least recent first; records that leave give their bytes back. */
  private readonly tenants = new Lru<KeyRecords>(MAX_TENANTS_KEPT, { dispose: dropAll })
  /** Counted by every tenant's records. */
  private readonly held: ByteCount = { bytes: 0 }
  private readonly newRecords: () => KeyRecords

  constructor(
    private readonly limits: IdempotencyLimits,
    /** Where finished records are made durable, and read back from at the start: the store, with --db. */
    private readonly keeper?: KeyRecordsPort,
  ) {
    this.newRecords = () => new KeyRecords(Math.max(1, limits.maxPerTenant), this.held)
    for (const { tenant, record } of keeper?.savedKeyRecords() ?? []) this.restore(tenant, record)
  }

  /** The bytes its records hold over every tenant (the memory budget counts them, docs/behaviour.md §3). */
  get heldBytes(): number {
    return this.held.bytes
  }

  begin(tenant: string, key: string, request: KeyedRequest, now: number): Outcome {
    checkKeyLength(key)
    const records = this.tenants.remember(tenant, this.newRecords)
    const { method, path } = request
    const body = bodyPrint(request.body)
    const existing = records.find(key)
    // A running call's record lapses on real time only (docs/behaviour.md §8): an advance never lets a second call in beside it.
    if (existing !== 0 && (records.status(existing) === 0 || records.expiresAt(existing) > now)) {
      if (!records.matches(existing, method, path, body)) throw keyReused(key)
      const status = records.status(existing)
      if (status === 0) throw keyInProgress(key)
      return { kind: 'replay', status, body: answerBody(records.answer(existing)) }
    }
    if (existing !== 0) records.remove(existing)
    const id = records.open(key, method, path, body, now + RETENTION_MS)
    this.keepWithinBytes(records, id)
    const open: OpenRecord = { kind: 'proceed', tenant, records, id, stored: false }
    return open
  }

  /** With a keeper, the record stored with the call's write; in memory alone, nothing to store. */
  recordOfWrite(recording: Recording, status: number): ((result: unknown) => KeyedWrite) | undefined {
    if (!this.keeper) return undefined
    const open = recording as OpenRecord
    return (result) => {
      open.stored = true
      return { record: { ...open.records.recordOf(open.id), status, answer: answerText(result) }, keep: this.limits.maxPerTenant }
    }
  }

  /**
   * Keeps the answer (its body as JSON) for replay, or forgets the key so that a retry gets a
   * fresh answer. The record is the one `begin` opened, so the usual answer needs no lookup. With
   * a keeper, answers the record's storing, which the answer waits for.
   */
  finish(recording: Recording, status: number, json: string): Promise<void> | undefined {
    const { tenant, records, id, stored } = recording as OpenRecord
    if (!records.isOpen(id)) return undefined
    if (isReplayed(status)) {
      records.answered(id, status, json)
      this.keepWithinBytes(records, id)
      if (stored) return undefined
      // Kept before the answer is sent: a retry after a restart is replayed (docs/decisions.md, 2026-11-25).
      return this.keeper?.keepKeyRecord(tenant, records.recordOf(id), this.limits.maxPerTenant)
    }
    this.abandon(recording)
    return undefined
  }

  restamp(tenant: string, now: number): void {
    this.tenants.peek(tenant)?.restamp(now + RETENTION_MS)
  }

  /** Takes back a record kept by an earlier run; whether it has expired is the tenant's clock's to say, when its key comes again. */
  private restore(tenant: string, { key, method, path, print, status, answer, expiresAt }: KeyRecord): void {
    const records = this.tenants.remember(tenant, this.newRecords)
    const existing = records.find(key)
    if (existing !== 0) records.remove(existing)
    const id = records.open(key, method, path, print, expiresAt)
    records.answered(id, status, answer)
    this.keepWithinBytes(records, id)
  }

  /** Forgets a key whose call got no answer of its own (forced, injected or dropped). */
  abandon(recording: Recording): void {
    const { tenant, records, id } = recording as OpenRecord
    records.remove(id)
    // A tenant's records are dropped from the map only once empty, so records still holding ids are the map's.
    if (records.size === 0 && this.tenants.peek(tenant) === records) this.tenants.delete(tenant)
  }

  forget(tenant: string): void {
    this.tenants.delete(tenant)
  }

  /** Drops the oldest records of the least recent tenants; record `id` of `keep`, just written, stays. */
  private keepWithinBytes(keep: KeyRecords, id: number): void {
    if (this.held.bytes <= this.limits.maxBytes) return // every call comes here: no iterator until the bound is passed
    const emptied: string[] = []
    for (const [tenant, records] of this.tenants.leastRecentFirst()) {
      if (this.held.bytes <= this.limits.maxBytes) break
      const except = records === keep ? id : 0
      while (this.held.bytes > this.limits.maxBytes && records.size > (except === 0 ? 0 : 1)) records.dropOldest(except)
      if (records.size === 0) emptied.push(tenant)
    }
    for (const tenant of emptied) this.tenants.delete(tenant)
  }
}

/** Gives a tenant's records' bytes back as they leave the map. */
function dropAll(records: KeyRecords): void {
  while (records.size > 0) records.dropOldest()
}
