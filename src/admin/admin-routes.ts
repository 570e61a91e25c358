import express, { type Express } from 'express'
import type { Contract } from '../contract/load-contract.ts'
import { adminAccessOf, adminGuard } from './admin-guard.ts'
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
 * The control plane under `/__admin`, from spec/admin.yaml. Health and the inspector's page (its
 * static files, which hold no data) are open everywhere; the rest (the event stream included)
 * sits behind the guard that closes it on a non-loopback host without the admin token. Returns the
 * same handlers as an in-process door, which the library's Tenant calls: one implementation behind both.
 */
export function mountAdmin(app: Express, admin: Contract, info: AdminInfo, routeDeps: RouteDependencies, options: AdminRouteOptions): AdminCall {
  // Admin calls are not calls of a tenant: they never make the store hold one by looking.
  const deps: RouteDependencies = { ...routeDeps, opensTenant: false, jsonOnly: true }
  const handlers = adminHandlers(info, adminAccessOf(options.host, options.adminToken))
  const { getHealth, ...guardedRoutes } = handlers
  mountOperations(app, admin, { getHealth }, deps)
  mountInspector(app)
  const guarded = express.Router()
  guarded.use('/__admin', adminGuard(options.host, options.adminToken))
  // With --api-key, the routes the document leaves open (the tenant list) need an accepted key too: it lists them.
  mountOperations(guarded, admin, guardedRoutes, { ...deps, keyRequired: deps.apiKeys !== undefined })
  const stream = admin.operations.get(EVENT_STREAM_OPERATION)
  if (!stream) throw new Error(`${EVENT_STREAM_OPERATION} has no operation in the admin document`)
  guarded.get(stream.routePath, eventStream(stream, { ...deps, journal: info.journal, shutdown: options.shutdown }))
  app.use(guarded)
  return adminCalls(admin, handlers, deps)
}
