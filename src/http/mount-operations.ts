import type { Express, Router } from 'express'
import type { OperationEntry } from '../core/operation-table.ts'
import { noteOperation } from '../log/request-log.ts'
import type { RouteTable } from '../core/route-table.ts'
import { operationRoute, type OperationCall } from './operation-route.ts'

/**
 * Mounts each operation's pipeline on its path. With a `table`, the
 * same calls are also entered there, for the fast path that skips express.
 */
export function mountOperations(router: Router | Express, entries: readonly OperationEntry[], table?: RouteTable<OperationCall>): void {
  for (const { operation, answer } of entries) {
    const route = operationRoute(answer)
    const call: OperationCall = (req, res, params, headers) => {
      noteOperation(res, operation.operationId)
      return route(req, res, params, headers)
    }
    table?.add(operation.method, operation.pathTemplate, call)
    // The document's templates name whole segments only, so no parameter is a list.
    router.route(operation.routePath)[operation.method.toLowerCase() as 'get']((req, res) => call(req, res, req.params as Record<string, string>))
  }
}
