import type { Contract } from '../contract/load-contract.ts'
import type { Operation } from '../contract/operation.ts'
import type { Handler } from '../resources/operation-context.ts'
import { operationPipeline, type OperationPipeline } from './operation-pipeline.ts'
import type { CoreState, Plane } from './planes.ts'
import { RouteTable } from './route-table.ts'

export interface OperationEntry {
  operation: Operation
  answer: OperationPipeline
}

/**
 * The pipeline of each operation of a document that has a handler: routing comes from the
 * document, keyed by operationId. A handler the document does not name is a bug, found at start.
 */
export function operationEntries(contract: Contract, byId: Record<string, Handler>, state: CoreState, plane: Plane): OperationEntry[] {
  for (const operationId of Object.keys(byId)) {
    if (!contract.operations.has(operationId)) throw new Error(`handler ${operationId} has no operation in the document`)
  }
  const entries: OperationEntry[] = []
  for (const operation of contract.operations.values()) {
    const handler = byId[operation.operationId]
    if (handler) entries.push({ operation, answer: operationPipeline(operation, handler, state, plane) })
  }
  return entries
}

/** The entries by method and path template, for a door that routes without express. */
export function routeTableOf<T>(entries: readonly OperationEntry[], valueOf: (entry: OperationEntry) => T): RouteTable<T> {
  const table = new RouteTable<T>()
  for (const entry of entries) table.add(entry.operation.method, entry.operation.pathTemplate, valueOf(entry))
  return table
}
