import { adminCalls, type AdminCall } from '../admin/admin-calls.ts'
import { adminAccessOf } from '../admin/admin-guard.ts'
import { adminHandlers, type AdminInfo } from '../admin/handlers/admin-handlers.ts'
import { loadContracts as loadBothContracts, type Contracts } from '../contract/load-contract.ts'
import type { ApiPlane, CoreState } from '../core/planes.ts'
import { createLogger, type Logger } from '../log/logger.ts'
import { RetryHint } from '../log/retry-hint.ts'
import { handlers } from '../resources/registry/handlers.ts'
import { novuOperationHandlers } from '../resources/registry/novu-dispatch.ts'
import type { Handler } from '../resources/operation-context.ts'
import { prebuiltSeed } from '../seed/prebuilt-seed.ts'
import type { FixturesRead } from '../seed/seeding.ts'
import { defaultVolumes, seedCounts } from '../seed/seed-options.ts'
import { createLowdbStore } from '../store/lowdb-store.ts'
import type { TenantState } from '../store/records.ts'
import { openStoreFile } from '../store/sqlite/store-file.ts'
import { StoreFileError, type SeedSpec } from '../store/store.ts'
import { DEFAULT_CONFIG, type AppOptions, type ServerConfig } from './config.ts'
import { idempotencyOver, memoryPolicies, redisState, tenantClocks, type Policies } from './policies.ts'
import { cleanPolicies, onRelease } from './tenant-upkeep.ts'
import { FaultRules } from '../policies/faults/fault-rules.ts'

export const VERSION = '0.1.0'

let contracts: Promise<Contracts> | undefined

/** Both documents, loaded and compiled once per process: the validators hold no per-app state. */
export function loadContracts(): Promise<Contracts> {
  contracts ??= loadBothContracts()
  return contracts
}

/**
 * A mock's state, whatever door serves it: the config in force, the store and the policies, the
 * core's view of them, and the control plane's handlers. No socket, no express: the node server
 * and `novu-mock/msw` each mount this.
 */
export interface MockState {
  /** The config in force (with --db, the file's seed options). */
  config: ServerConfig
  logger: Logger
  seed: TenantState
  /** What the user's fixtures gave; absent without fixtures. */
  fixtures?: FixturesRead | undefined
  contracts: Contracts
  core: CoreState
  /** The five operations, with the API's policies. */
  api: {
    plane: ApiPlane
    handlers: Record<string, Handler>
    /** Every operation of Novu's document by its operationId; the five's paths stay the five's (docs/behaviour.md §10). */
    novuHandlers: Record<string, Handler>
  }
  /** The control plane: its handlers, what they report on, and the same handlers called in process (the library's Tenant). */
  admin: { handlers: ReturnType<typeof adminHandlers>; info: AdminInfo; call: AdminCall }
  /** Releases what the state holds: the --db file, written and unlocked; Redis's connection. */
  close(): Promise<void>
}

export async function createState(options: AppOptions = {}): Promise<MockState> {
  const { logger: givenLogger, now: givenClock, store: givenStore, onSeedProgress, shutdown: _shutdown, ...overrides } = options
  let config: ServerConfig = { ...DEFAULT_CONFIG, ...stripUndefined(overrides), volumes: overrides.volumes ?? defaultVolumes(overrides.demo ?? false) }
  const logger = givenLogger ?? createLogger(config.logLevel)
  const loaded = await loadContracts()
  // Opened before the seed is made: the file's seed options are the ones its rows lie over.
  const storeFile = givenStore || config.db === undefined ? undefined : await openStoreFile(config.db, await fileSeedOf(config), (line) => logger.warn(line))
  if (storeFile) config = await withFileSeed(config, storeFile.seed)
  // Tenants created through the admin API are seeded like the rest, demo data set included.
  const seedOptions = { seed: config.seed, demo: config.demo, ...config.volumes }
  let fixtures: FixturesRead | undefined
  const readFixtures = (read: FixturesRead) => {
    fixtures = read
    for (const line of read.warnings) logger.warn(line)
  }
  const seed =
    (config.fixtures ? undefined : prebuiltSeed(seedOptions)) ??
    // Loaded only when needed: the generators (and faker) are a fifth of a start-up's time.
    (await import('../seed/seeding.ts')).seededState({ ...seedOptions, fixtures: config.fixtures }, loaded.admin, onSeedProgress, readFixtures)
  // Redis must hold tenants made from the same seed options (docs/behaviour.md §7).
  const shared = givenStore || config.redis === undefined ? undefined : await redisState(config, await fileSeedOf(config), logger)
  const backend = shared?.backend ?? (givenStore ? undefined : await storeFile?.backend(seed))
  // What a released tenant takes along, known once the store that releases it has made the policies.
  let held: Policies | undefined
  const released = onRelease(backend?.kind ?? 'memory', logger, () => held)
  const store =
    givenStore ??
    (await createLowdbStore({
      seed,
      maxTenants: config.maxTenants,
      seedFor,
      backend,
      onRelease: released,
      tenantTtlMs: config.tenantTtlMs,
      memoryBudget: config.memoryBudget,
      countsOfSeed: (spec) => seedCounts(spec, seed.integrations.length),
    }))
  const beside = shared?.policies ?? memoryPolicies(config)
  const idempotency = idempotencyOver(store, beside.running, storeFile !== undefined || shared !== undefined, shared !== undefined)
  const policies: Policies = { ...beside, faults: new FaultRules(store), idempotency }
  held = policies
  const clocks = tenantClocks(config, policies, store, logger, givenClock ? () => givenClock().getTime() : Date.now)
  // Before the tenant is known (and for answers that name none): the starting clock.
  const now = () => new Date(clocks.startNow())
  const apiKeys = config.apiKeys.length > 0 ? new Set(config.apiKeys) : undefined
  const core: CoreState = { store, logger, now, clocks, mode: config.responseValidation, apiKeys, retries: new RetryHint(logger) }
  const info: AdminInfo = {
    version: VERSION,
    startedAt: Date.now(),
    journal: policies.journal,
    tenants: { seed: seedOptions, acceptKey: (key: string) => apiKeys?.add(key), strictKeys: new Set(config.apiKeys) },
    faults: policies.faults,
    api: loaded.api,
    novu: loaded.novu,
    clocks,
    clean: (tenant: string) => cleanPolicies(policies, tenant),
    logger,
  }
  const controlHandlers = adminHandlers(info, adminAccessOf(config.host, config.adminToken))
  return {
    config,
    logger,
    seed,
    fixtures,
    contracts: loaded,
    core,
    api: { plane: { name: 'api', policies, envelope: config.envelope }, handlers, novuHandlers: novuOperationHandlers(loaded.novu, config.seed) },
    admin: { handlers: controlHandlers, info, call: adminCalls(loaded.admin, controlHandlers, core) },
    // A given store is its giver's to close.
    close: async () => {
      await policies.close()
      if (!givenStore) await store.close()
    },
  }
}

/** Compiles the validators no request has needed yet, one operation per turn of the event loop. */
export function warmInBackground({ api, admin }: Contracts): void {
  const pending = [...api.operations.values(), ...admin.operations.values()]
  const step = () => {
    pending.shift()?.warm()
    if (pending.length > 0) setImmediate(step)
  }
  setImmediate(step)
}

/** The seed of a tenant created with options of its own, made in slices: the server answers other calls meanwhile. */
const seedFor = async (spec: SeedSpec) => (await import('../seed/generators/seed.ts')).seedStateInSlices(spec)

/** The seed options a store file records: the volumes and, with fixtures, what they held. */
async function fileSeedOf(config: ServerConfig): Promise<SeedSpec> {
  const fixtures = config.fixtures && { dir: config.fixtures.dir, mode: config.fixtures.mode, digest: (await import('../seed/seeding.ts')).fixturesDigest(config.fixtures.dir) }
  // --clock is recorded only in Redis, where instances must agree; a --db file is one process's.
  const clock = config.redis !== undefined && config.clock !== undefined ? new Date(config.clock).toISOString() : undefined
  return { seed: config.seed, demo: config.demo, ...config.volumes, fixtures, clock }
}

/** The config with the file's seed options; its fixtures must still hold what they held. */
async function withFileSeed(config: ServerConfig, { seed, demo = false, fixtures, ...volumes }: SeedSpec): Promise<ServerConfig> {
  if (fixtures && (await import('../seed/seeding.ts')).fixturesDigest(fixtures.dir) !== fixtures.digest) {
    throw new StoreFileError(`${config.db} lies over the fixtures in ${fixtures.dir}, which have changed since it was written; put them back, or give --db a new file`)
  }
  return { ...config, seed, demo, volumes, fixtures: fixtures && { dir: fixtures.dir, mode: fixtures.mode } }
}

function stripUndefined<T extends object>(options: T): Partial<T> {
  return Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined)) as Partial<T>
}
