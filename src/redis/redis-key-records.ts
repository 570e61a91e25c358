import type { KeyRecord } from '../store/store.ts'
import { tenantKeys } from './redis-keys.ts'

/**
 * Idempotency records in Redis (docs/behaviour.md §4), written by the records' adapter
 * (redis-idempotency.ts) and, for a call that writes, by the store's write
 * script with the change itself. One hash per key, under the tenant's hash tag:
 *   method, path, print   the request's fingerprint
 *   status                the answer's status; 0 while the first call runs
 *   answer                the answer's body as JSON, once finished
 *   token                 the running call's own token, while it runs
 *   expiresAt             when it expires in the tenant's time (docs/behaviour.md §8), once finished
 * A running call's record lives a few seconds of real time unless renewed; a finished one is
 * dropped by Redis a day of real time after it was stored, and counts as gone from `expiresAt`.
 */

/** A finished record's life in Redis, in real time: the tenant's clock says when it expires before that. */
const KEPT_REAL_MS = 24 * 60 * 60 * 1000

/** The hash of one key's record; `recordKeyPrefix` + the key. */
export const keyRecordKey = (tenant: string, key: string): string => `${recordKeyPrefix(tenant)}${key}`
export const recordKeyPrefix = (tenant: string): string => tenantKeys(tenant).keyRecord
/** The sorted set of the tenant's keys, oldest first: the tenant keeps its newest ones. */
export const keyOrderKey = (tenant: string): string => tenantKeys(tenant).keyOrder

/** A finished record, as KEEP_RECORD reads it: numbers as strings, so Lua never rounds them. */
export const keyRecordJson = ({ method, path, print, status, answer, expiresAt }: KeyRecord): string =>
  JSON.stringify({ method, path, print, status: String(status), answer, expiresAt: String(expiresAt) })

/** Lua: stores the finished record `json` (keyRecordJson) in the hash `key`. */
export const KEEP_RECORD = (key: string, json: string): string => `
local finished = cjson.decode(${json})
redis.call('HSET', ${key}, 'method', finished.method, 'path', finished.path, 'print', finished.print, 'status', finished.status, 'answer', finished.answer, 'expiresAt', finished.expiresAt)
redis.call('HDEL', ${key}, 'token')
redis.call('PEXPIRE', ${key}, ${KEPT_REAL_MS})
`
