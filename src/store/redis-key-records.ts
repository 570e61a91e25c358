import type { KeyRecord } from './store.ts'
import { tenantKeyBase } from './redis-connection.ts'

/**
 * Idempotency records in Redis (docs/behaviour.md §4), written by the records' adapter
 * (policies/idempotency/redis-idempotency.ts) and, for a call that writes, by the store's write
 * script with the change itself. One hash per key, under the tenant's hash tag:
 *   method, path, print   the request's fingerprint
 *   status                the answer's status; 0 while the first call runs
 *   answer                the answer's body as JSON, once finished
 *   token                 the running call's own token, while it runs
 * A running call's record lives a few seconds unless renewed; a finished one, 24 hours.
 */

/** The hash of one key's record; `recordKeyPrefix` + the key. */
export const keyRecordKey = (tenant: string, key: string): string => `${recordKeyPrefix(tenant)}${key}`
export const recordKeyPrefix = (tenant: string): string => `${tenantKeyBase(tenant)}key:`
/** The sorted set of the tenant's keys, oldest first: the tenant keeps its newest ones. */
export const keyOrderKey = (tenant: string): string => `${tenantKeyBase(tenant)}keys`

/** A finished record, as KEEP_RECORD reads it: numbers as strings, so Lua never rounds them. */
export const keyRecordJson = ({ method, path, print, status, answer, expiresAt }: KeyRecord): string =>
  JSON.stringify({ method, path, print, status: String(status), answer, expiresAt: String(expiresAt) })

/** Lua: stores the finished record `json` (keyRecordJson) in the hash `key`, until its time. */
export const KEEP_RECORD = (key: string, json: string): string => `
local finished = cjson.decode(${json})
redis.call('HSET', ${key}, 'method', finished.method, 'path', finished.path, 'print', finished.print, 'status', finished.status, 'answer', finished.answer)
redis.call('HDEL', ${key}, 'token')
redis.call('PEXPIREAT', ${key}, finished.expiresAt)
`
