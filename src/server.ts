import { once } from 'node:events'
import type { AddressInfo } from 'node:net'
import express, { type Express, type Request, type Response, type NextFunction, type Router } from 'express'
import { adminHandlers } from './admin/admin-handlers.ts'
import { DEFAULT_CONFIG, type AppOptions, type ServerConfig } from './config.ts'
import { ADMIN_DOCUMENT, API_DOCUMENT, loadContract, schemaOf, type Contract } from './contract/load-contract.ts'
import { adminGuard } from './http/admin-guard.ts'
import { ApiError } from './http/api-error.ts'
import { IdempotencyRecords } from './http/idempotency.ts'
import { RequestJournal } from './journal/request-journal.ts'
import { FaultRules } from './faults/fault-rules.ts'
import { DEFAULT_RATE_LIMIT, RateLimiter } from './http/rate-limiter.ts'
import { createLogger } from './http/logger.ts'
import { errorAnswer, operationRoute, type RouteDependencies } from './http/operation-route.ts'
import { requestLog } from './http/request-log.ts'
import { checkedAnswer, sendJson } from './http/respond.ts'
import { handlers } from './resources/handlers.ts'
import type { Handler } from './resources/operation-context.ts'
import { seededState } from './seeding.ts'
import { createLowdbStore } from './store/lowdb-store.ts'
import type { TenantState } from './store/records.ts'

export const VERSION = '0.1.0'
const API_BODY_LIMIT = '1mb'
const ADMIN_BODY_LIMIT = '64mb'
const IDEMPOTENCY_RECORDS_PER_TENANT = 1000
const CLOSE_GRACE_MS = 1000

export interface Contracts {
  api: Contract
  admin: Contract
}

let contracts: Promise<Contracts> | undefined

/** Both documents, loaded and compiled once per process: the validators hold no per-app state. */
export function loadContracts(): Promise<Contracts> {
  contracts ??= Promise.all([
    loadContract(API_DOCUMENT, { bodies: 'strip-unknown', componentNames: ['ErrorDto'] }),
    loadContract(ADMIN_DOCUMENT, { bodies: 'exact' }),
  ]).then(([api, admin]) => ({ api, admin }))
  return contracts
}

export interface MockApp extends Express {
  locals: Express['locals'] & { seed: TenantState; config: ServerConfig }
}

/** The mock as an express app that never listens: routes, validation and state, from options. */
export async function createApp(options: AppOptions = {}): Promise<MockApp> {
  const { logger: givenLogger, now: givenClock, store: givenStore, ...overrides } = options
  const config: ServerConfig = { ...DEFAULT_CONFIG, ...stripUndefined(overrides) }
  const logger = givenLogger ?? createLogger(config.logLevel)
  const now = givenClock ?? (() => new Date())
  const { api, admin } = await loadContracts()
  const seedOptions = { seed: config.seed, ...config.volumes }
  const seed = seededState({ ...seedOptions, fixtures: config.fixtures }, admin)
  const store = givenStore ?? (await createLowdbStore({ seed, maxTenants: config.maxTenants, file: config.db }))
  const apiKeys = config.apiKeys.length > 0 ? new Set(config.apiKeys) : undefined
  const base = { store, logger, now, mode: config.responseValidation, apiKeys }

  const app = express() as MockApp
  app.set('etag', false)
  app.set('x-powered-by', false)
  app.set('query parser', false)
  app.locals.seed = seed
  app.locals.config = config
  app.use(requestLog(logger))

  const journal = new RequestJournal(config.journalSize)
  const tenants = { seed: seedOptions, acceptKey: (key: string) => apiKeys?.add(key) }
  const faults = new FaultRules()
  const adminRoutes = adminHandlers({ version: VERSION, startedAt: Date.now(), journal, tenants, faults, api })
  const adminDeps: RouteDependencies = { ...base, bodyLimit: ADMIN_BODY_LIMIT }
  mountOperations(app, admin, { getHealth: adminRoutes.getHealth }, adminDeps)
  const guarded = express.Router()
  guarded.use('/__admin', adminGuard(config.host, config.adminToken))
  const { getHealth: _health, ...guardedRoutes } = adminRoutes
  mountOperations(guarded, admin, guardedRoutes, adminDeps)
  app.use(guarded)

  const idempotency = new IdempotencyRecords(IDEMPOTENCY_RECORDS_PER_TENANT)
  const rateLimiter = new RateLimiter(config.rateLimit ?? DEFAULT_RATE_LIMIT, config.rateLimit !== undefined)
  mountOperations(app, api, handlers, { ...base, bodyLimit: API_BODY_LIMIT, idempotency, journal, rateLimiter, faults })

  const errorDto = schemaOf(api, 'ErrorDto')
  app.use((req: Request, res: Response) => {
    const answer = errorAnswer(new ApiError(404, 'ROUTE_NOT_FOUND', `Cannot ${req.method} ${req.originalUrl}`), req, base)
    sendJson(res, checkedAnswer(answer, errorDto, req.originalUrl, base))
  })
  app.use((error: unknown, req: Request, res: Response, _next: NextFunction) => {
    const status = (error as { status?: number }).status
    const known = typeof status === 'number' && status >= 400 && status < 500
    const apiError = known ? new ApiError(status, 'BAD_REQUEST', (error as Error).message) : error
    sendJson(res, checkedAnswer(errorAnswer(apiError, req, base), errorDto, req.originalUrl, base))
  })
  return app
}

/** Mounts each operation of a document on its path; the handler set must match the document's. */
function mountOperations(router: Router | Express, contract: Contract, byId: Record<string, Handler>, deps: RouteDependencies) {
  for (const operationId of Object.keys(byId)) {
    if (!contract.operations.has(operationId)) throw new Error(`handler ${operationId} has no operation in the document`)
  }
  for (const operation of contract.operations.values()) {
    const handler = byId[operation.operationId]
    if (!handler) continue
    const route = operationRoute(operation, handler, deps)
    router.route(operation.routePath)[operation.method.toLowerCase() as 'get']((req, res, next) => {
      res.locals.operationId = operation.operationId
      route(req, res, next)
    })
  }
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
  const app = await createApp({ ...options, host })
  const server = app.listen(options.port ?? 0, host)
  await once(server, 'listening')
  warmInBackground(await loadContracts())
  const { port } = server.address() as AddressInfo
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    port,
    app,
    // Answers in flight finish (each is stored before it is sent); idle keep-alives go at once.
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()))
        server.closeIdleConnections()
        setTimeout(() => server.closeAllConnections(), CLOSE_GRACE_MS).unref()
      }),
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
