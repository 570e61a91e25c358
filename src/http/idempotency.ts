import { createHash } from 'node:crypto'
import { ApiError, validationFailed } from './api-error.ts'

export const MAX_KEY_LENGTH = 255
const RETENTION_MS = 24 * 60 * 60 * 1000
/** Answers of the operation itself that a retry replays; anything else (409, 429, 5xx) is not kept. */
const STORED_ERROR_STATUSES: ReadonlySet<number> = new Set([400, 404, 422])

interface Entry {
  fingerprint: string
  expiresAt: number
  answer?: { status: number; body: unknown }
}

export type Outcome = { kind: 'proceed' } | { kind: 'replay'; status: number; body: unknown }

/** Idempotency records per tenant, bounded (oldest dropped) and kept 24 hours. */
export class IdempotencyRecords {
  private readonly tenants = new Map<string, Map<string, Entry>>()

  constructor(private readonly maxPerTenant: number) {}

  begin(tenant: string, key: string, request: { method: string; path: string; body: unknown }, now: number): Outcome {
    if (key.length > MAX_KEY_LENGTH) {
      throw new ApiError(400, 'IDEMPOTENCY_KEY_TOO_LONG', `idempotencyKey "${key}" has exceeded the maximum allowed length of ${MAX_KEY_LENGTH} characters`)
    }
    const records = this.recordsOf(tenant)
    const fingerprint = fingerprintOf(request)
    const entry = records.get(key)
    if (entry && entry.expiresAt > now) {
      if (entry.fingerprint !== fingerprint) {
        throw validationFailed(
          { general: { messages: [`Request with key "${key}" is being reused for a different body`] } },
          `Request with key "${key}" is being reused for a different body`,
        )
      }
      if (!entry.answer) {
        throw new ApiError(409, 'IDEMPOTENCY_IN_PROGRESS', `Request with key "${key}" is currently being processed. Please retry after 1 second`, {
          headers: { 'Retry-After': '1' },
        })
      }
      return { kind: 'replay', ...entry.answer }
    }
    records.delete(key)
    records.set(key, { fingerprint, expiresAt: now + RETENTION_MS })
    this.trim(records, now)
    return { kind: 'proceed' }
  }

  /** Keeps the answer for replay, or forgets the key so that a retry gets a fresh answer. */
  finish(tenant: string, key: string, status: number, body: unknown): void {
    const records = this.tenants.get(tenant)
    const entry = records?.get(key)
    if (!records || !entry || entry.answer) return
    if ((status >= 200 && status < 300) || STORED_ERROR_STATUSES.has(status)) entry.answer = { status, body }
    else records.delete(key)
  }

  /** Forgets a key whose call got no answer of its own (forced, injected or dropped). */
  abandon(tenant: string, key: string): void {
    this.tenants.get(tenant)?.delete(key)
  }

  private recordsOf(tenant: string): Map<string, Entry> {
    let records = this.tenants.get(tenant)
    if (!records) this.tenants.set(tenant, (records = new Map()))
    return records
  }

  private trim(records: Map<string, Entry>, now: number): void {
    for (const [key, entry] of records) {
      if (records.size <= this.maxPerTenant && entry.expiresAt > now) break
      records.delete(key)
    }
  }
}

function fingerprintOf(request: { method: string; path: string; body: unknown }): string {
  return createHash('sha256').update(`${request.method} ${request.path} ${JSON.stringify(request.body ?? null)}`).digest('base64')
}
