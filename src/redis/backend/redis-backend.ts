import { describeSeed, sameSeed } from '../../store/file-seed.ts'
import { clockFromText } from '../../clock/clock-setting.ts'
import { LOG_LENGTH, PUTS, SINCE, STAGE, WRITE } from './redis-scripts.ts'
import { stageRows } from './staged-rows.ts'
import { randomUUID } from 'node:crypto'
import { STEPPED_ROWS, type Change, type OverlayRow, type SharedBackend, type TenantUpdate } from '../../store/store-backend.ts'
import { KEY_RECORDS_KEPT, StoreFileError, type SeedSpec } from '../../store/store.ts'
import { confirmedWrites } from './redis-wait.ts'
import { answersPing, bulkConnectionOf, connectRedis, modeOf, redactedUrl, type RedisClient } from '../redis-connection.ts'
import { GLOBAL_KEYS, tenantKeys, type TenantKeys } from '../redis-keys.ts'
import { deleteTenants } from './redis-drop-tenants.ts'
import { faultsOf, LARGE, updateOf, type SinceAnswer } from './redis-since-answer.ts'
import { defineScripts } from '../redis-define-scripts.ts'
import { markerKey } from '../redis-running-keys.ts'
import { keyRecordJson, listed, listedRows, recordTexts, RELOAD, rowArguments } from './change-texts.ts'

const { tenants: TENANTS_KEY, seed: SEED_KEY, called: CALLED_KEY } = GLOBAL_KEYS
/** Tenants listed as called per ZADD. */
const BATCH = 500

/**
 * A script's arguments: a list among them is sent as its items (ioredis flattens one level), so
 * that the rows of a large state are never spread into one call's arguments, which overflows
 * the stack at some 100,000 of them.
 */
type Argument = string | number | readonly (string | number)[]

/** The scripts, as ioredis defines them (EVALSHA, loaded again after a restart of Redis), on each connection. */
const SCRIPTS = {
  novuWrite: { numberOfKeys: 8, lua: WRITE },
  novuPuts: { lua: PUTS },
  novuSince: { numberOfKeys: 7, lua: SINCE },
  novuStage: { numberOfKeys: 2, lua: STAGE },
} as const

interface Scripts {
  novuWrite(...args: Argument[]): Promise<number>
  /** The number of keys first: a put's marker is a key of its own. */
  novuPuts(keys: number, ...args: Argument[]): Promise<number>
  novuSince(...args: (string | number)[]): Promise<SinceAnswer>
  novuStage(meta: string, staged: string, ttlMs: number, args: readonly string[]): Promise<number>
}

/** Connects to the Redis at `url` and opens the backend on it (openRedisOn). */
export async function openRedis(url: string, seed: SeedSpec, limits: RedisLimits = {}): Promise<SharedBackend> {
  const client = await connectRedis(url)
  try {
    return await openRedisOn(client, redactedUrl(url), seed, limits)
  } catch (error) {
    client.disconnect()
    throw error
  }
}

/**
 * The backend on a connected client, once the seed options Redis records (recorded at the first
 * start) are this instance's: another instance's options stop this one, its records lie over another seed.
 */
export async function openRedisOn(client: RedisClient, where: string, seed: SeedSpec, limits: RedisLimits = {}): Promise<SharedBackend> {
  await client.set(SEED_KEY, JSON.stringify(seed), 'NX')
  const stored = JSON.parse((await client.get(SEED_KEY))!) as SeedSpec
  if (!sameSeed(stored, seed)) {
    throw new StoreFileError(
      `--redis ${where} holds tenants made with the seed options ${describeSeed(stored)}; this instance was started with ${describeSeed(seed)}: start it with those, or use another Redis database`,
    )
  }
  return redisBackend(client, limits)
}

export interface RedisLimits {
  /**
   * The largest change (JSON characters) kept in a tenant's list as it is; a larger one (a whole
   * state put) is listed as `reload`, and an instance behind it reads the tenant whole: the list
   * stays small whatever the states put.
   */
  listedChange?: number
  /** Replicas that must have a write before it is acknowledged, at most those its master has (redis-wait.ts); 1 by default. */
  waitReplicas?: number
}

export function redisBackend(client: RedisClient, { listedChange = 64 * 1024, waitReplicas = 1 }: RedisLimits = {}): SharedBackend {
  const scripts = defineScripts<Scripts>(client, SCRIPTS)
  /** The connection whole tenants of many rows are read on (bulkConnectionOf), opened at the first. */
  let bulk: Promise<{ connection: RedisClient; scripts: Scripts }> | undefined
  const bulkScripts = async () => {
    bulk ??= bulkConnectionOf(client).then(
      (connection) => ({ connection, scripts: defineScripts<Scripts>(connection, SCRIPTS) }),
      (error: unknown) => {
        bulk = undefined
        throw error
      },
    )
    return (await bulk).scripts
  }
  const confirmed = confirmedWrites(client, waitReplicas)
  /** The scripts queued on a write's pipeline (confirmed): their answers come with the pipeline's. */
  const queued = (pipeline: unknown) => pipeline as Scripts
  /** A tenant's first change lists it among the tenants with state (no bound: each instance bounds its own memory). */
  const listTenant = async (tenant: string, version: number) => void (version === 0 && (await client.sadd(TENANTS_KEY, tenant)))
  /**
   * A large replace: its rows staged in steps (staged-rows.ts), then made the tenant's by one
   * script over the version held; listed as `reload`, so that instances behind read the tenant.
   * One script of a 50 MB state's 115,000 rows held Redis for 0.55 s, and making its arguments
   * held this process for 0.65 s more.
   */
  const replaceStaged = async (keys: TenantKeys, version: number, rows: readonly OverlayRow[]) => {
    const staged = `${keys.staged}${randomUUID()}`
    await stageRows((key, ttlMs, args) => scripts.novuStage(keys.meta, key, ttlMs, args), staged, rows)
    const fields = new Set(rows.map(({ kind, id }) => `${kind} ${id}`)).size
    const answer = await confirmed(keys.meta, (pipeline) =>
      queued(pipeline).novuWrite(keys.meta, keys.rows, keys.log, keys.snapshots, keys.snapshotAt, staged, keys.keyRecords, keys.keyOrder, version, LOG_LENGTH, 'replaceStaged', RELOAD, '', '', fields, []),
    )
    if (answer !== -1) return answer
    client.unlink(staged).catch(() => undefined) // else it expires
    return 'conflict' as const
  }

  return {
    kind: modeOf(client),
    reachable: () => answersPing(client),
    // Nothing is read at the start: each tenant is read when first served.
    load: async () => ({ tenants: new Map(), maxSeq: 0 }),

    // Only call times come this way (store/upkeep/tenant-expiry.ts); every other change goes through writeAt.
    async write(changes) {
      if (changes.some((change) => change.type !== 'touch')) throw new Error('a shared backend stores changes through writeAt')
      const calls = changes.flatMap((change) => (change.type === 'touch' ? [change.at, change.tenant] : []))
      if (calls.length > 0) await client.zadd(CALLED_KEY, ...calls)
    },

    async expire(before) {
      // A tenant listed before call times were stored counts as called now, at the first sweep that finds it.
      const listed = await client.smembers(TENANTS_KEY)
      const now = Date.now()
      for (let i = 0; i < listed.length; i += BATCH) await client.zadd(CALLED_KEY, 'NX', ...listed.slice(i, i + BATCH).flatMap((tenant) => [now, tenant]))
      const old = await client.zrangebyscore(CALLED_KEY, '-inf', `(${before}`)
      if (old.length === 0) return []
      await deleteTenants(client, old)
      return old
    },

    dropTenants: (tenants) => deleteTenants(client, tenants),

    async writeAt(tenant, version, change) {
      await listTenant(tenant, version)
      const keys = tenantKeys(tenant)
      if (change.type === 'replace' && change.rows.length >= STEPPED_ROWS) return replaceStaged(keys, version, change.rows)
      const name = 'name' in change ? change.name : change.type === 'keyRecord' ? change.record.key : ''
      const records = 'rows' in change ? recordTexts(change.rows) : []
      const answer = await confirmed(keys.meta, (pipeline) => queued(pipeline).novuWrite(
        keys.meta,
        keys.rows,
        keys.log,
        keys.snapshots,
        keys.snapshotAt,
        `${keys.snap}${name}`,
        keys.keyRecords,
        keys.keyOrder,
        version,
        LOG_LENGTH,
        change.type,
        'rows' in change ? listedRows(change, records, listedChange) : listed(change, listedChange),
        name,
        change.type === 'saveSnapshot' ? change.createdAt : change.type === 'restampKeyRecords' ? change.expiresAt : '',
        valueOf(change),
        'rows' in change ? change.rows.flatMap((row, i) => rowArguments(row, records[i]!)) : change.type === 'keyRecord' ? [change.keep] : [],
      ))
      return answer === -1 ? 'conflict' : answer
    },

    async putsAt(tenant, version, puts) {
      await listTenant(tenant, version)
      const keys = tenantKeys(tenant)
      const markers = puts.map(({ record }) => (record ? markerKey(tenant, record.key) : keys.meta))
      const args = puts.flatMap(({ rows, record, keep, marker }) => {
        const records = recordTexts(rows)
        const keyed = record ? [keyRecordJson(record), record.key, keep ?? KEY_RECORDS_KEPT, marker ?? ''] : ['', '', 0, '']
        return [listedRows({ type: 'put', tenant, rows }, records, listedChange), ...keyed, rows.length, ...rows.flatMap((row, i) => rowArguments(row, records[i]!))]
      })
      const answer = await confirmed(keys.meta, (pipeline) =>
        queued(pipeline).novuPuts(5 + puts.length, keys.meta, keys.rows, keys.log, keys.keyRecords, keys.keyOrder, markers, version, LOG_LENGTH, JSON.stringify(tenant), listedChange, args),
      )
      return answer === -1 ? 'conflict' : answer
    },

    async since(tenant, version) {
      const keys = tenantKeys(tenant)
      const ask = async (held: number, via = scripts, most: number | '' = STEPPED_ROWS) =>
        updateOf(await via.novuSince(keys.meta, keys.log, keys.rows, keys.snapshots, keys.snapshotAt, keys.keyRecords, keys.keyOrder, held, keys.snap, most))
      const whole = async (held: number): Promise<TenantUpdate> => {
        const update = await ask(held)
        if (update === RELOAD) return whole(-1)
        return update === LARGE ? ((await ask(-1, await bulkScripts(), '')) as TenantUpdate) : update
      }
      return whole(version)
    },

    storedTenants: () => client.scard(TENANTS_KEY),

    clockOf: async (tenant) => clockFromText(await client.hget(tenantKeys(tenant).meta, 'clock')),

    faultRulesOf: async (tenant) => faultsOf(await client.hget(tenantKeys(tenant).meta, 'faults')),

    async tenants() {
      const tenants = await client.smembers(TENANTS_KEY)
      // Sent together (one round trip to each node); the tenants' keys lie on several slots of a cluster, so neither one script nor one pipeline.
      const seeds = await Promise.all(tenants.map((tenant) => client.hexists(tenantKeys(tenant).meta, 'seed')))
      return tenants.map((tenant, i) => ({ tenant, created: seeds[i] === 1 }))
    },

    async close() {
      const opened = await bulk?.catch(() => undefined)
      await Promise.all([client, opened?.connection].map((each) => each?.quit().catch(() => each.disconnect())))
    },
  }
}

/**
 * The WRITE script's value of a change as JSON ('' for none): a seed of its own, its clock or its
 * fault rules (set in the tenant's meta hash), or an idempotency record.
 */
function valueOf(change: Change): string {
  if (change.type === 'createTenant') return JSON.stringify(change.seed)
  if (change.type === 'clock') return change.clock === undefined ? '' : JSON.stringify(change.clock)
  if (change.type === 'faultRules') return change.faults === undefined ? '' : JSON.stringify(change.faults)
  return change.type === 'keyRecord' ? keyRecordJson(change.record) : ''
}
