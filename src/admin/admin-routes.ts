import express, { type Express } from 'express'
import type { Contract } from '../contract/load-contract.ts'
import { adminGuard } from './admin-guard.ts'
import type { RouteDependencies } from '../http/operation-route.ts'
import { mountOperations } from '../http/mount-operations.ts'
import { adminCalls, type AdminCall } from './admin-calls.ts'
import { adminHandlers, type AdminInfo } from './admin-handlers.ts'
import { EVENT_STREAM_OPERATION, eventStream } from './event-stream.ts'
import { mountInspector } from './inspector-routes.ts'

export interface AdminRouteOptions {
  host: string
  adminToken: string | undefined
  shutdown?: AbortSignal
}

/**
 * The control plane under `/__admin`, from spec/admin.yaml. Health is open everywhere; the rest
 * (the event stream and the inspector page included) sits behind the guard that closes it on a
 * non-loopback host without the admin token. Returns the same handlers as an in-process door,
 * which the library's Tenant calls: one implementation behind both.
 */
export function mountAdmin(app: Express, admin: Contract, info: AdminInfo, deps: RouteDependencies, options: AdminRouteOptions): AdminCall {
  const handlers = adminHandlers(info)
  const { getHealth, ...guardedRoutes } = handlers
  mountOperations(app, admin, { getHealth }, deps)
  const guarded = express.Router()
  guarded.use('/__admin', adminGuard(options.host, options.adminToken))
  mountOperations(guarded, admin, guardedRoutes, deps)
  const stream = admin.operations.get(EVENT_STREAM_OPERATION)
  if (!stream) throw new Error(`${EVENT_STREAM_OPERATION} has no operation in the admin document`)
  guarded.get(stream.routePath, eventStream(stream, { ...deps, journal: info.journal, shutdown: options.shutdown }))
  mountInspector(guarded)
  app.use(guarded)
  return adminCalls(admin, handlers, deps)
}
