import { hash } from 'node:crypto'
import { RecencyMap } from '../recency-map.ts'
import { RecentKeys } from '../recent-keys.ts'
import { ApiError, validationFailed } from './api-error.ts'

export const MAX_KEY_LENGTH = 255
const RETENTION_MS = 24 * 60 * 60 * 1000
/** Answers of the operation itself that a retry replays; anything else (409, 429, 5xx) is not kept. */
const STORED_ERROR_STATUSES: ReadonlySet<number> = new Set([400, 404, 422])

/**
 * One object per key, of one shape, holding strings the call made anyway (its method, its path,
 * the answer's JSON) where it can: every record outlives several collections of the young
 * generation, so each object and string it adds is copied, then promoted.
 */
export interface KeyRecord {
  /** The fingerprint (behaviour.md §4): method, path, and the body as sent (see bodyPrint). */
  method: string
  path: string
  body: string
  expiresAt: number
  /** What the record holds, roughly: the key, the fingerprint, the answer's JSON, and overhead. */
  bytes: number
  /** The answer kept for replay, as JSON rather than a tree of objects; status 0 until it is answered. */
  status: number
  json: string
  /** False once dropped or removed: an answer arriving after that is not kept. */
  held: boolean
}

export interface IdempotencyLimits {
  /** Keys kept per tenant: the most recent ones. */
  maxPerTenant: number
  /** Over all tenants: the records of the tenant written least recently go first. */
  maxBytes: number
}

/** A record's own size beyond its strings: the entry object and its Map slot. */
const ENTRY_OVERHEAD_BYTES = 200

/** What a key's fingerprint covers: method, path and the body's bytes as sent (behaviour.md §4). */
export interface KeyedRequest {
  method: string
  path: string
  body: Buffer | undefined
}

/** A keyed call under way, its record open: what `finish` or `abandon` closes, with no lookup. */
export interface Recording {
  readonly kind: 'proceed'
  readonly tenant: string
  readonly key: string
  readonly record: KeyRecord
}

export type Outcome = Recording | { kind: 'replay'; status: number; body: unknown }

/**
 * Idempotency records per tenant, kept 24 hours, bounded per tenant (oldest dropped) and in bytes
 * over all tenants, so that neither many keys nor many tenants (store evictions included) grow
 * the memory without bound.
 */
export class IdempotencyRecords {
  /** Tenants in the order they last recorded a key, least recent first. */
  private readonly tenants = new RecencyMap<RecentKeys<KeyRecord>>()
  private bytes = 0
  private readonly newRecords: () => RecentKeys<KeyRecord>

  constructor(private readonly limits: IdempotencyLimits) {
    this.newRecords = () => new RecentKeys(Math.max(1, limits.maxPerTenant))
  }

  begin(tenant: string, key: string, request: KeyedRequest, now: number): Outcome {
    if (key.length > MAX_KEY_LENGTH) {
      throw new ApiError(400, 'IDEMPOTENCY_KEY_TOO_LONG', `idempotencyKey "${key}" has exceeded the maximum allowed length of ${MAX_KEY_LENGTH} characters`)
    }
    const records = this.tenants.touch(tenant, this.newRecords)
    const body = bodyPrint(request.body)
    const existing = records.get(key)
    if (existing && existing.expiresAt > now) {
      if (existing.method !== request.method || existing.path !== request.path || existing.body !== body) {
        throw validationFailed(
          { general: { messages: [`Request with key "${key}" is being reused for a different body`] } },
          `Request with key "${key}" is being reused for a different body`,
        )
      }
      if (existing.status === 0) {
        throw new ApiError(409, 'IDEMPOTENCY_IN_PROGRESS', `Request with key "${key}" is currently being processed. Please retry after 1 second`, {
          headers: { 'Retry-After': '1' },
        })
      }
      return { kind: 'replay', status: existing.status, body: JSON.parse(existing.json) }
    }
    if (existing) this.remove(records, key)
    const { method, path } = request
    const bytes = key.length + path.length + body.length + ENTRY_OVERHEAD_BYTES
    const record: KeyRecord = { method, path, body, expiresAt: now + RETENTION_MS, bytes, status: 0, json: '', held: true }
    this.add(records, key, record)
    this.keepWithinBytes(records, key)
    return { kind: 'proceed', tenant, key, record }
  }

  /**
   * Keeps the answer (its body as JSON) for replay, or forgets the key so that a retry gets a
   * fresh answer. The record is the one `begin` opened, so the usual answer needs no lookup.
   */
  finish({ tenant, key, record }: Recording, status: number, json: string): void {
    if (!record.held || record.status !== 0) return
    if ((status >= 200 && status < 300) || STORED_ERROR_STATUSES.has(status)) {
      record.status = status
      record.json = json
      record.bytes += json.length
      this.bytes += json.length
      if (this.bytes > this.limits.maxBytes) this.keepWithinBytes(this.tenants.get(tenant)!, key)
    } else this.forget(tenant, key)
  }

  /** Forgets a key whose call got no answer of its own (forced, injected or dropped). */
  abandon({ tenant, key }: Recording): void {
    this.forget(tenant, key)
  }

  private forget(tenant: string, key: string): void {
    const records = this.tenants.get(tenant)
    if (!records) return
    this.remove(records, key)
    if (records.size === 0) this.tenants.delete(tenant)
  }

  private add(records: RecentKeys<KeyRecord>, key: string, record: KeyRecord): void {
    const dropped = records.add(key, record)
    record.held = true
    this.bytes += record.bytes
    if (dropped) this.release(dropped)
  }

  private remove(records: RecentKeys<KeyRecord>, key: string): void {
    const record = records.delete(key)
    if (record) this.release(record)
  }

  /** A record no longer held: an answer arriving for it after this is not kept. */
  private release(record: KeyRecord): void {
    record.held = false
    this.bytes -= record.bytes
  }

  /** Drops the oldest records of the least recent tenants; the record of `key` in `keep`, just written, stays. */
  private keepWithinBytes(keep: RecentKeys<KeyRecord>, key: string): void {
    if (this.bytes <= this.limits.maxBytes) return // every call comes here: no iterator until the bound is passed
    for (const [tenant, records] of this.tenants) {
      if (this.bytes <= this.limits.maxBytes) return
      const kept = records === keep ? records.get(key) : undefined
      while (this.bytes > this.limits.maxBytes && records.size > (records === keep ? 1 : 0)) {
        this.release(records.dropOldest()!)
        if (kept && !kept.held) this.add(records, key, kept)
      }
      if (records.size === 0) this.tenants.delete(tenant)
    }
  }
}

/** Up to this length the body itself is its print: comparing it costs less than hashing it. */
const SHORT_BODY = 512

/** latin1: one character per byte, so the text is the bytes, with nothing to decode. */
function bodyPrint(body: Buffer | undefined): string {
  if (body === undefined) return ''
  return body.length <= SHORT_BODY ? body.toString('latin1') : hash('sha256', body, 'base64')
}
