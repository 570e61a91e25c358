import { once, setMaxListeners } from 'node:events'
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import express from 'express'
import type { AdminCall } from '../admin/admin-calls.ts'
import { mountAdmin } from '../admin/admin-routes.ts'
import { DEFAULT_CONFIG, type AppOptions, type ServerConfig } from './config.ts'
import { defaultVolumes } from '../seed/seed-options.ts'
import { API_DOCUMENT, loadContracts as loadBothContracts, schemaOf, type Contracts } from '../contract/load-contract.ts'
import { createGuardedServer } from '../http/client-errors.ts'
import { checkingHost, hostPolicy } from '../http/host-check.ts'
import { corsAllowed, corsPolicy, type CorsHeaders } from '../http/cors.ts'
import { mountFallbacks } from '../http/fallback-routes.ts'
import { createLogger } from '../log/logger.ts'
import { mountOperations } from '../http/mount-operations.ts'
import type { OperationCall } from '../http/operation-route.ts'
import { requestLog } from '../log/request-log.ts'
import { RouteTable } from '../http/route-table.ts'
import { memoryPolicies, redisState, tenantClocks } from './policies.ts'
import { cleanPolicies, onRelease, type Upkeep } from './tenant-upkeep.ts'
import { mountProxy } from '../proxy/proxy-route.ts'
import { mountLanding } from '../web/landing-route.ts'
import { mountReference } from '../web/reference-routes.ts'
import { handlers } from '../resources/handlers.ts'
import { prebuiltSeed } from '../seed/prebuilt-seed.ts'
import { createLowdbStore } from '../store/lowdb-store.ts'
import type { TenantState } from '../store/records.ts'
import { openStoreFile } from '../store/store-file.ts'
import { StoreFileError, type SeedSpec } from '../store/store.ts'

export const VERSION = '0.1.0'
const API_BODY_LIMIT = '1mb'
const ADMIN_BODY_LIMIT = '64mb'
const CLOSE_GRACE_MS = 1000

let contracts: Promise<Contracts> | undefined

/** Both documents, loaded and compiled once per process: the validators hold no per-app state. */
export function loadContracts(): Promise<Contracts> {
  contracts ??= loadBothContracts()
  return contracts
}

export interface MockApp {
  (req: IncomingMessage, res: ServerResponse): void
  /** The seed and the config in force (with --db, the file's seed options). */
  readonly locals: {
    readonly seed: TenantState
    readonly config: ServerConfig
    /** The control plane's operations, called in process (the library's Tenant). */
    readonly admin: AdminCall
  }
  /** Releases what the app holds: the --db file, written and unlocked. */
  close(): Promise<void>
}

/**
 * Routes, validation and state, from options. The API's operations are answered straight from a
 * route table built from the document; express serves the rest (the control plane, the
 * fallbacks) and any spelling of an operation's path that the table leaves to it.
 */
export async function createApp(options: AppOptions = {}): Promise<MockApp> {
  const { logger: givenLogger, now: givenClock, store: givenStore, onSeedProgress, shutdown, ...overrides } = options
  let config: ServerConfig = { ...DEFAULT_CONFIG, ...stripUndefined(overrides), volumes: overrides.volumes ?? defaultVolumes(overrides.demo ?? false) }
  const logger = givenLogger ?? createLogger(config.logLevel)
  const { api, admin } = await loadContracts()
  // Opened before the seed is made: the file's seed options are the ones its rows lie over.
  const storeFile = givenStore || config.db === undefined ? undefined : await openStoreFile(config.db, await fileSeedOf(config), (line) => logger.warn(line))
  if (storeFile) config = await withFileSeed(config, storeFile.seed)
  // Tenants created through the admin API are seeded like the rest, demo data set included.
  const seedOptions = { seed: config.seed, demo: config.demo, ...config.volumes }
  const seed =
    (config.fixtures ? undefined : prebuiltSeed(seedOptions)) ??
    // Loaded only when needed: the generators (and faker) are a fifth of a start-up's time.
    (await import('../seed/seeding.ts')).seededState({ ...seedOptions, fixtures: config.fixtures }, admin, onSeedProgress)
  // Redis must hold tenants made from the same seed options (docs/behaviour.md §7).
  const shared = givenStore || config.redis === undefined ? undefined : await redisState(config, await fileSeedOf(config), logger)
  const backend = shared?.backend ?? (givenStore ? undefined : await storeFile?.backend(seed))
  // What a released tenant takes along, known once the store that releases it has made the policies.
  let upkeep: Upkeep | undefined
  const released = onRelease(backend?.kind ?? 'memory', logger, () => upkeep)
  const store = givenStore ?? (await createLowdbStore({ seed, maxTenants: config.maxTenants, seedFor, backend, onRelease: released, tenantTtlMs: config.tenantTtlMs }))
  const policies = shared?.policies ?? memoryPolicies(config, storeFile ? store : undefined)
  const { idempotency, journal, faults, rateLimiter } = policies
  const clocks = tenantClocks(config, policies, givenClock ? () => givenClock().getTime() : Date.now)
  upkeep = { ...policies, clocks }
  // Before the tenant is known (and for answers that name none): the starting clock.
  const now = () => new Date(clocks.startNow())
  const apiKeys = config.apiKeys.length > 0 ? new Set(config.apiKeys) : undefined
  const base = { store, logger, now, clocks, mode: config.responseValidation, apiKeys }

  const app = express()
  app.set('etag', false)
  app.set('x-powered-by', false)
  app.set('query parser', false)

  const info = {
    version: VERSION,
    startedAt: Date.now(),
    journal,
    tenants: { seed: seedOptions, acceptKey: (key: string) => apiKeys?.add(key) },
    faults,
    api,
    clocks,
    clean: (tenant: string) => cleanPolicies({ idempotency, journal, faults, rateLimiter }, tenant),
  }
  const adminCall = mountAdmin(app, admin, info, { ...base, bodyLimit: ADMIN_BODY_LIMIT }, { ...config, shutdown })
  // Before the proxy's catch-all: the reference, like /__admin, stays local in every mode.
  mountReference(app, API_DOCUMENT)
  mountLanding(app, VERSION)

  const table = new RouteTable<OperationCall>()
  if (config.proxy) mountProxy(app, { ...config.proxy, api, logger, journal, now })
  else mountOperations(app, api, handlers, { ...base, bodyLimit: API_BODY_LIMIT, idempotency, journal, rateLimiter, faults, envelope: config.envelope }, table)
  mountFallbacks(app, schemaOf(api, 'ErrorDto'), base)

  const log = requestLog(logger)
  const route = (req: IncomingMessage, res: ServerResponse, corsHeaders?: CorsHeaders) => {
    const url = req.url ?? '/'
    const query = url.indexOf('?')
    const match = table.match(req.method ?? '', query === -1 ? url : url.slice(0, query))
    if (match) return void match.value(req, res, match.params, corsHeaders)
    for (const name in corsHeaders) res.setHeader(name, corsHeaders[name]!)
    app(req, res)
  }
  const cors = corsPolicy(config.corsOrigins)
  const listener = (req: IncomingMessage, res: ServerResponse) => {
    log(req, res)
    // Only a browser sends Origin: other clients skip CORS entirely, and so does the control plane.
    const origin = req.headers.origin
    if (cors === undefined || origin === undefined || !corsAllowed(req.url ?? '/')) route(req, res)
    else if (req.method === 'OPTIONS') cors.preflight(req, res)
    else route(req, res, cors.headersFor(origin))
  }
  // A given store is its giver's to close.
  const close = async () => {
    await policies?.close()
    if (!givenStore) await store.close()
  }
  return Object.assign(listener, { locals: { seed, config, admin: adminCall }, close })
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

export interface MockServer {
  readonly url: string
  readonly port: number
  readonly app: MockApp
  close(): Promise<void>
}

/** createApp plus listen: port 0 (any free port) and 127.0.0.1 unless told otherwise. */
export async function createMockServer(options: AppOptions = {}): Promise<MockServer> {
  const host = options.host ?? DEFAULT_CONFIG.host
  const shutdown = new AbortController()
  // One listener per open event stream, and the journal allows many more than node's default 10.
  setMaxListeners(0, shutdown.signal)
  const app = await createApp({ ...options, host, shutdown: shutdown.signal })
  // The Host check comes first of all, and only here: an in-process use of the app never sees it.
  const server = createGuardedServer(checkingHost(app, hostPolicy(host, app.locals.config.allowedHosts)), options).listen(options.port ?? 0, host)
  await once(server, 'listening')
  warmInBackground(await loadContracts())
  const { port } = server.address() as AddressInfo
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    port,
    app,
    // Answers in flight finish (each is stored before it is sent); idle keep-alives and event streams go at once.
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()))
        shutdown.abort()
        server.closeIdleConnections()
        setTimeout(() => server.closeAllConnections(), CLOSE_GRACE_MS).unref()
      }).finally(() => app.close()),
  }
}

/** Compiles the validators no request has needed yet, one operation per turn of the event loop. */
function warmInBackground({ api, admin }: Contracts): void {
  const pending = [...api.operations.values(), ...admin.operations.values()]
  const step = () => {
    pending.shift()?.warm()
    if (pending.length > 0) setImmediate(step)
  }
  setImmediate(step)
}

function stripUndefined<T extends object>(options: T): Partial<T> {
  return Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined)) as Partial<T>
}
