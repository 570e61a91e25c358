import type { Contract } from '../../contract/load-contract.ts'
import { novuComponents } from '../../contract/novu/novu-document.ts'
import type { Operation } from '../../contract/operation.ts'
import { documentAnswer, type AnswerSource } from '../document/document-answer.ts'
import { novuHandlers, novuKeepers } from './novu-handlers.ts'
import type { Handler } from '../operation-context.ts'

/**
 * A handler for every operation of Novu's document: its own where `novuHandlers` registers one
 * (stateful), else its documented answer (docs/behaviour.md §10), kept first where `novuKeepers`
 * says (§11). `seed`: the tenants' seed,
 * which the generated answers follow.
 */
export function novuOperationHandlers(novu: Contract, seed: number): Record<string, Handler> {
  const source = answerSource(novu)
  const handlers: Record<string, Handler> = {}
  for (const operation of novu.operations.values()) {
    const { operationId } = operation
    const own = novuHandlers[operationId]
    if (own) {
      handlers[operationId] = own
      continue
    }
    const documented = documentAnswer(operation, seed, source)
    handlers[operationId] = novuKeepers[operationId]?.(documented) ?? documented
  }
  return handlers
}

function answerSource(novu: Contract): AnswerSource {
  return {
    successSchema(operation: Operation) {
      const op = novu.document.paths?.[operation.pathTemplate]?.[operation.method.toLowerCase() as 'get']
      const response = op?.responses?.[String(operation.successStatus)] as { content?: Record<string, { schema?: Record<string, unknown> }> } | undefined
      return response?.content?.['application/json']?.schema
    },
    defs: () => novuComponents().$defs as Record<string, Record<string, unknown>>,
  }
}
