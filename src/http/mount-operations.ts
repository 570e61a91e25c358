import type { Express, Router } from 'express'
import type { Contract } from '../contract/load-contract.ts'
import type { Handler } from '../resources/operation-context.ts'
import { operationRoute, type OperationCall, type RouteDependencies } from './operation-route.ts'
import { noteOperation } from '../log/request-log.ts'
import type { RouteTable } from './route-table.ts'

/**
 * Mounts each operation of a document that has a handler on its path; routing comes from the
 * document. With a `table`, the same calls are also entered there, for the fast path.
 */
export function mountOperations(
  router: Router | Express,
  contract: Contract,
  byId: Record<string, Handler>,
  deps: RouteDependencies,
  table?: RouteTable<OperationCall>,
): void {
  for (const operationId of Object.keys(byId)) {
    if (!contract.operations.has(operationId)) throw new Error(`handler ${operationId} has no operation in the document`)
  }
  for (const operation of contract.operations.values()) {
    const handler = byId[operation.operationId]
    if (!handler) continue
    const route = operationRoute(operation, handler, deps)
    const call: OperationCall = (req, res, params, headers) => {
      noteOperation(res, operation.operationId)
      return route(req, res, params, headers)
    }
    table?.add(operation.method, operation.pathTemplate, call)
    // The document's templates name whole segments only, so no parameter is a list.
    router.route(operation.routePath)[operation.method.toLowerCase() as 'get']((req, res) => call(req, res, req.params as Record<string, string>))
  }
}
