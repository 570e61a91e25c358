import { ApiError, generalProblem, tryAgainLater } from '../../answer/api-error.ts'
import { AnsweredOtherwise, type Answer } from '../../answer/answer.ts'
import { errorBody } from '../../answer/error-body.ts'
import type { ValidateFunction } from 'ajv/dist/2020.js'
import { checkedAnswer, type ResponseCheck } from './response-check.ts'
import type { Logger } from '../../log/logger.ts'
import { RuleBroken } from '../../resources/rule-broken.ts'
import { StoreWriteFailed, TenantLimitReached } from '../../store/store.ts'
import { LargerThanBudget, MemoryBudgetExceeded } from '../../store/upkeep/memory-budget.ts'

/** What an error answer needs to know of its request: the method, and the URL as sent. */
export interface ErrorLine {
  method: string
  url: string
}

/**
 * The documented answer to anything thrown on a call's way: an ApiError as it is, a broken rule of
 * the service as the live service answers it, and anything else as a 503 or a logged 500.
 */
export function errorAnswer(error: unknown, line: ErrorLine, deps: { logger: Logger; now: () => Date }): Answer {
  if (error instanceof AnsweredOtherwise) return error.answer
  const apiError = error instanceof ApiError ? error : error instanceof RuleBroken ? answerOfRule(error) : unexpected(error, line, deps)
  if (apiError.details.hint) deps.logger.info(`${apiError.status} ${apiError.message}: ${apiError.details.hint}`, { method: line.method, path: line.url.split('?')[0] })
  if (apiError.details.fields) deps.logger.debug('request broke the document', { method: line.method, path: line.url.split('?')[0], fields: apiError.details.fields })
  return {
    status: apiError.status,
    body: errorBody(apiError, line.url, deps.now()),
    ...(apiError.details.headers ? { headers: apiError.details.headers } : {}),
  }
}

/**
 * `errorAnswer` checked against the error's documented schema (the ErrorDto, or the operation's
 * own answer of its status): what every door sends for a request no operation answered.
 */
export function checkedErrorAnswer(error: unknown, line: ErrorLine, validatorOf: (status: number) => ValidateFunction | undefined, check: ResponseCheck): Answer {
  const answer = errorAnswer(error, line, check)
  return checkedAnswer(answer, validatorOf(answer.status), line.url, check)
}

const STATUS_OF_RULE = { refused: 400, missing: 404, exists: 409, unprocessable: 422 } as const

/**
 * The live service's status for a broken rule. Its 422s (`workflow_not_found`) carry their message
 * under `errors.general` too: the official SDK rejects a 422 without `errors` (docs/behaviour.md §1.2).
 */
function answerOfRule({ kind, code, message, problems, record }: RuleBroken): ApiError {
  if (kind === 'unprocessable') return problems ? generalProblem([...problems]) : generalProblem([message], message)
  return new ApiError(STATUS_OF_RULE[kind], code, message, record ? { record: record as Record<string, unknown> } : {})
}

function unexpected(error: unknown, { method, url }: ErrorLine, deps: { logger: Logger }): ApiError {
  const path = url.split('?')[0]
  if (error instanceof TenantLimitReached) {
    deps.logger.warn('new tenant refused: every held tenant has a call under way', { maxTenants: error.maxTenants })
    return tryAgainLater('TENANT_LIMIT', 1)
  }
  if (error instanceof MemoryBudgetExceeded) {
    deps.logger.warn('call refused: the memory budget is reached and no other tenant can be released', { method, path, budget: error.budget })
    return tryAgainLater('MEMORY_BUDGET', 1)
  }
  if (error instanceof LargerThanBudget) return new ApiError(413, 'LARGER_THAN_MEMORY_BUDGET', error.message)
  if (error instanceof StoreWriteFailed) {
    deps.logger.error('the store could not be reached or written: the call changed nothing and was refused', { method, path, error: error.message })
    return tryAgainLater('STORE_WRITE_FAILED', 1)
  }
  deps.logger.error('unexpected error', { method, path, error: String((error as Error)?.stack ?? error) })
  return new ApiError(500, 'INTERNAL', 'Internal Server Error')
}

