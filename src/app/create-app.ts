import type { IncomingMessage, ServerResponse } from 'node:http'
import express from 'express'
import type { AdminCall } from '../admin/admin-calls.ts'
import { mountAdmin } from '../admin/admin-routes.ts'
import type { AppOptions, ServerConfig } from './config.ts'
import { API_DOCUMENT, schemaOf } from '../contract/load-contract.ts'
import { isAdminPath } from '../core/body/body-limit.ts'
import { readJsonFirst } from '../core/body/body-reading.ts'
import { Dispatcher } from '../core/dispatcher.ts'
import { apiEntries } from '../core/operation-table.ts'
import { corsAllowed, corsPolicy, type CorsHeaders } from '../http/cors.ts'
import { mountFallbacks } from '../http/fallback-routes.ts'
import { answerOnNode, newNodeCallRequest, nodeCallRequest, sendOutcome } from '../http/operation-route.ts'
import { requestLog } from '../log/request-log.ts'
import { mountProxy } from '../proxy/proxy-route.ts'
import { mountLanding } from '../web/landing-route.ts'
import { mountReference } from '../web/reference-routes.ts'
import type { TenantState } from '../store/records.ts'
import type { FixturesRead } from '../seed/seeding.ts'
import { createState, VERSION, type MockState } from './create-state.ts'

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
 * The node door over a mock's state. The API's operations are routed by the core's dispatcher
 * (core/dispatcher.ts), as in novu-mock/msw; express serves the rest (the control plane, the
 * reference, the proxy, the fallbacks).
 */
export async function createApp(options: AppOptions = {}): Promise<MockApp> {
  const state = await createState(options)
  const { config, logger, core } = state
  const { api, admin } = state.contracts
  const app = express()
  app.set('etag', false)
  app.set('x-powered-by', false)
  app.set('query parser', false)

  mountAdmin(app, admin, state.admin, core, { host: config.host, adminToken: config.adminToken, shutdown: options.shutdown })
  // Before the proxy's catch-all: the reference, like /__admin, stays local in every mode.
  mountReference(app, API_DOCUMENT)
  mountLanding(app, VERSION)

  const { journal } = state.api.plane.policies
  if (config.proxy) mountProxy(app, { ...config.proxy, api, novu: state.contracts.novu, logger, journal, now: core.now })
  const errorDto = schemaOf(api, 'ErrorDto')
  mountFallbacks(app, errorDto, core)
  const dispatcher = new Dispatcher(config.proxy ? [] : apiEntries(state.contracts, state.api, core, state.api.plane), errorDto, core)
  return Object.assign(nodeListener(state, app, dispatcher), { locals: { seed: state.seed, config, admin: state.admin.call, fixtures: state.fixtures }, close: state.close })
}

/**
 * Every request: logged, CORS's answer or headers for a browser, then the dispatcher or express.
 * A JSON body is read before either routes it (docs/behaviour.md §1.3): by the operation the
 * dispatcher finds, else here; in proxy mode a proxied call's body is the upstream's to read.
 */
function nodeListener({ config, logger }: MockState, app: express.Express, dispatcher: Dispatcher) {
  const log = requestLog(logger)
  const route = (req: IncomingMessage, res: ServerResponse, corsHeaders?: CorsHeaders) => {
    const url = req.url ?? '/'
    const query = url.indexOf('?')
    const path = query === -1 ? url : url.slice(0, query)
    const routed = dispatcher.route(req.method ?? '', path)
    if (routed?.entry) return void answerOnNode(req, res, routed.entry, routed.params, corsHeaders, newNodeCallRequest(req))
    for (const name in corsHeaders) res.setHeader(name, corsHeaders[name]!)
    if (config.proxy && !isAdminPath(path)) return void app(req, res)
    const call = nodeCallRequest(req)
    if (routed) return void dispatcher.refused(call, routed.refusal).then((sent) => sendOutcome(req, res, sent))
    readJsonFirst(call).then(
      () => app(req, res),
      (error: unknown) => sendOutcome(req, res, dispatcher.errorSent(error, call)),
    )
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
