import type { Express, Router } from 'express'
import type { Contract } from '../contract/load-contract.ts'
import type { Handler } from '../resources/operation-context.ts'
import { operationRoute, type RouteDependencies } from './operation-route.ts'

/** Mounts each operation of a document that has a handler on its path; routing comes from the document. */
export function mountOperations(router: Router | Express, contract: Contract, byId: Record<string, Handler>, deps: RouteDependencies): void {
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
