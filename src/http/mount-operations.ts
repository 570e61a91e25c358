import type { Express, Router } from 'express'
import type { OperationEntry } from '../core/operation-table.ts'
import { answerOnNode } from './operation-route.ts'

/** Mounts each operation of the control plane on its path (the API's are the core dispatcher's, core/dispatcher.ts). */
export function mountOperations(router: Router | Express, entries: readonly OperationEntry[]): void {
  for (const entry of entries) {
    // The document's templates name whole segments only, so no parameter is a list.
    router.route(entry.operation.routePath)[entry.operation.method.toLowerCase() as 'get']((req, res) => answerOnNode(req, res, entry, req.params as Record<string, string>))
  }
}
