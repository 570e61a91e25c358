/**
 * Every key novu-mock writes in Redis, named here and nowhere else; only src/redis/ imports this
 * file (a rule of `npm run lint:layers`). What each key holds is told beside the code that writes
 * it (backend/redis-scripts.ts, redis-running-keys.ts, redis-journal.ts, redis-rate-limiter.ts).
 */

/** Every key novu-mock writes starts with this. */
export const KEY_PREFIX = 'novu-mock'

/** The keys of no one tenant. */
export const GLOBAL_KEYS = {
  /** Set: every tenant with state stored. */
  tenants: `${KEY_PREFIX}:tenants`,
  /** The shared seed's options, set by the first instance. */
  seed: `${KEY_PREFIX}:seed`,
  /** Sorted set: each tenant's latest call stored (ms since the epoch, as the score), what `--tenant-ttl` counts from. */
  called: `${KEY_PREFIX}:called`,
} as const

/** SCAN's pattern for every tenant's keys. */
export const TENANT_KEYS_PATTERN = `${KEY_PREFIX}:{*}:*`

/**
 * The start of a tenant's keys. Every key of one tenant carries the tenant's hash tag, so a
 * script touching several of them runs on one node of a cluster.
 */
export const tenantKeyBase = (tenant: string): string => `${KEY_PREFIX}:{${Buffer.from(tenant).toString('base64url')}}:`

/** A tenant's keys, after its prefix `novu-mock:{tenant}:`. */
export function tenantKeys(tenant: string) {
  const base = tenantKeyBase(tenant)
  return {
    // The tenant's value: its records, clock, fault rules and idempotency records (backend/redis-scripts.ts).
    meta: `${base}meta`,
    rows: `${base}rows`,
    log: `${base}log`,
    snapshots: `${base}snapshots`,
    snapshotAt: `${base}snapshot-at`,
    /** + a snapshot's name. */
    snap: `${base}snap:`,
    /** + an id: a large replace's rows, staged in steps. */
    staged: `${base}staged:`,
    // Its finished idempotency records, part of its value (backend/redis-scripts.ts): key → record, and the keys by expiry.
    keyRecords: `${base}key-records`,
    keyOrder: `${base}keys`,
    /** + an idempotency key: the marker of that key's call under way (redis-running-keys.ts). */
    running: `${base}key:`,
    /** The rate limit's bucket. */
    rate: `${base}rate`,
    // The journal (redis-journal.ts): its entries, its last id, and the channel of live entries.
    journal: `${base}journal`,
    journalId: `${base}journal-id`,
    journalLive: `${base}journal-live`,
  }
}

export type TenantKeys = ReturnType<typeof tenantKeys>
