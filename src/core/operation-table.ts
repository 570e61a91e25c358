import type { Contract } from '../contract/load-contract.ts'
import type { Operation } from '../contract/operation.ts'
import type { Handler } from '../resources/operation-context.ts'
import { operationPipeline, type OperationPipeline } from './operation-pipeline.ts'
import type { CoreState, Plane } from './planes.ts'

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

/**
 * Every operation of the Novu API: the five's own (spec/openapi.yaml), then each other operation
 * of Novu's document, those with literal segments before those that name a parameter in their
 * place (`/v1/integrations/active` before `/v1/integrations/{integrationId}`).
 */
export function apiEntries(contracts: { api: Contract; novu: Contract }, handlers: { handlers: Record<string, Handler>; novuHandlers: Record<string, Handler> }, state: CoreState, plane: Plane): OperationEntry[] {
  const five = operationEntries(contracts.api, handlers.handlers, state, plane)
  const served = new Set(five.map(({ operation }) => routeKey(operation)))
  const rest = operationEntries(contracts.novu, handlers.novuHandlers, state, plane).filter(({ operation }) => !served.has(routeKey(operation)))
  return [...five, ...rest.sort((a, b) => byCodeUnits(specificity(a.operation.pathTemplate), specificity(b.operation.pathTemplate)))]
}

/** A route's method and shape: `{subscriberId}` and `{id}` in one place are one route. */
const routeKey = ({ method, pathTemplate }: Operation) => `${method} ${pathTemplate.replace(/\{[^}]+\}/g, '{}')}`

/** A template that sorts a parameter after every literal segment in its place. */
const specificity = (template: string) => template.replace(/\{[^}]+\}/g, '\uffff')

const byCodeUnits = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)
