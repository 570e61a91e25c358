import type { IncomingMessage, ServerResponse } from 'node:http'
import express from 'express'
import type { AdminCall } from '../admin/admin-calls.ts'
import { mountAdmin } from '../admin/admin-routes.ts'
import type { AppOptions, ServerConfig } from './config.ts'
import { API_DOCUMENT, schemaOf } from '../contract/load-contract.ts'
import { API_BODY_LIMIT } from '../core/read-body.ts'
import { operationEntries } from '../core/operation-table.ts'
import { RouteTable } from '../core/route-table.ts'
import { corsAllowed, corsPolicy, type CorsHeaders } from '../http/cors.ts'
import { mountFallbacks } from '../http/fallback-routes.ts'
import { mountOperations } from '../http/mount-operations.ts'
import type { OperationCall } from '../http/operation-route.ts'
import { requestLog } from '../log/request-log.ts'
import { mountProxy } from '../proxy/proxy-route.ts'
import { mountLanding } from '../web/landing-route.ts'
import { mountReference } from '../web/reference-routes.ts'
import type { TenantState } from '../store/records.ts'
import type { FixturesRead } from '../seed/seeding.ts'
import { createState, VERSION, type MockState } from './create-state.ts'

/** The admin API takes a whole tenant's state in one body. */
const ADMIN_BODY_LIMIT = 64 * 2 ** 20

export interface MockApp {
  (req: IncomingMessage, res: ServerResponse): void
  /** The seed and the config in force (with --db, the file's seed options). */
  readonly locals: {
    readonly seed: TenantState
    readonly config: ServerConfig
    /** The control plane's operations, called in process (the library's Tenant). */
    readonly admin: AdminCall
    /** What the user's fixtures gave, for the CLI's banner; absent without fixtures. */
    readonly fixtures?: FixturesRead | undefined
  }
  /** Releases what the app holds: the --db file, written and unlocked. */
  close(): Promise<void>
}

/**
 * The node door over a mock's state. The API's operations are answered straight from a route
 * table built from the document; express serves the rest (the control plane, the fallbacks) and
 * any spelling of an operation's path that the table leaves to it.
 */
export async function createApp(options: AppOptions = {}): Promise<MockApp> {
  const state = await createState(options)
  const { config, logger, core } = state
  const { api, admin } = state.contracts
  const app = express()
  app.set('etag', false)
  app.set('x-powered-by', false)
  app.set('query parser', false)

  mountAdmin(app, admin, state.admin, core, { host: config.host, adminToken: config.adminToken, bodyLimit: ADMIN_BODY_LIMIT, shutdown: options.shutdown })
  // Before the proxy's catch-all: the reference, like /__admin, stays local in every mode.
  mountReference(app, API_DOCUMENT)
  mountLanding(app, VERSION)

  const table = new RouteTable<OperationCall>()
  const { journal } = state.api.plane.policies
  if (config.proxy) mountProxy(app, { ...config.proxy, api, logger, journal, now: core.now })
  else mountOperations(app, operationEntries(api, state.api.handlers, core, state.api.plane), API_BODY_LIMIT, table)
  mountFallbacks(app, schemaOf(api, 'ErrorDto'), core)
  return Object.assign(nodeListener(state, app, table), { locals: { seed: state.seed, config, admin: state.admin.call, fixtures: state.fixtures }, close: state.close })
}

/** Every request: logged, CORS's answer or headers for a browser, then the route table or express. */
function nodeListener({ config, logger }: MockState, app: express.Express, table: RouteTable<OperationCall>) {
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
  return (req: IncomingMessage, res: ServerResponse) => {
    log(req, res)
    // Only a browser sends Origin: other clients skip CORS entirely, and so does the control plane.
    const origin = req.headers.origin
    if (cors === undefined || origin === undefined || !corsAllowed(req.url ?? '/')) route(req, res)
    else if (req.method === 'OPTIONS') cors.preflight(req, res)
    else route(req, res, cors.headersFor(origin))
  }
}
