import express, { type Express } from 'express'
import type { Contract } from '../contract/load-contract.ts'
import { operationEntries } from '../core/operation-table.ts'
import { CONTROL_PLANE, type CoreState } from '../core/planes.ts'
import { mountOperations } from '../http/mount-operations.ts'
import { adminGuard } from './admin-guard.ts'
import type { adminHandlers, AdminInfo } from './handlers/admin-handlers.ts'
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
 * sits behind the guard that closes it on a non-loopback host without the admin token. The
 * handlers are the state's, which the library's Tenant also calls in process: one implementation behind both.
 */
export function mountAdmin(app: Express, admin: Contract, control: { handlers: ReturnType<typeof adminHandlers>; info: AdminInfo }, core: CoreState, options: AdminRouteOptions): void {
  const { getHealth, ...guardedRoutes } = control.handlers
  mountOperations(app, operationEntries(admin, { getHealth }, core, CONTROL_PLANE))
  mountInspector(app)
  const guarded = express.Router()
  guarded.use('/__admin', adminGuard(options.host, options.adminToken))
  // With --api-key, the routes the document leaves open (the tenant list) need an accepted key too: it lists them.
  mountOperations(guarded, operationEntries(admin, guardedRoutes, core, { ...CONTROL_PLANE, keyRequired: core.apiKeys !== undefined }))
  const stream = admin.operations.get(EVENT_STREAM_OPERATION)
  if (!stream) throw new Error(`${EVENT_STREAM_OPERATION} has no operation in the admin document`)
  guarded.get(stream.routePath, eventStream(stream, { ...core, journal: control.info.journal, shutdown: options.shutdown }))
  app.use(guarded)
}
