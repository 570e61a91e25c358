import type { Operation } from '../../contract/operation.ts'
import { ApiError, generalProblem, NO_VALUE, RETRY_LATER } from '../../answer/api-error.ts'
import { errorBody } from '../../answer/error-body.ts'
import { RATE_LIMITED } from '../rate-limit/rate-limiter.ts'
import type { Answer } from '../../answer/answer.ts'

export interface ForcedRequest {
  status: number
  /** The body to send; when absent, the document's example (2xx) or its error body. */
  body?: unknown
  headers?: Record<string, string>
  exampleName?: string
  /** The error message when the error body is made here. */
  message: string
  path: string
  now: Date
  /** The call's `RateLimit-Reset`: a forced 429 tells the same wait in `Retry-After`, as a real one does. */
  rateLimitReset?: string
}

/** Statuses whose body the live service words the same whatever the cause: a forced one does too. */
const LIVE_MESSAGES: Readonly<Record<number, string>> = { 429: RATE_LIMITED, 503: RETRY_LATER }

/**
 * An answer that does not run the operation and changes nothing. Only statuses the operation
 * documents may be forced; the answer is still checked against the document on its way out.
 */
export function forcedAnswer(operation: Operation, request: ForcedRequest): Answer {
  const { status } = request
  if (!operation.responseValidators.has(status)) throw generalProblem([`status ${status} is not documented for ${operation.operationId}`])
  const headers = status === 429 ? waitOf(request) : (request.headers ?? {})
  if (request.body !== undefined) return { status, body: request.body, headers, forced: true }
  if (status < 300) {
    const example = operation.example(status, request.exampleName)
    if (example === undefined) throw generalProblem([`the document has no example for ${operation.operationId} ${status}`])
    return { status, body: example, headers, forced: true }
  }
  const message = LIVE_MESSAGES[status] ?? request.message
  const errors = status === 422 ? { errors: { general: { messages: [message], value: NO_VALUE } } } : {}
  const body = errorBody(new ApiError(status, 'FORCED', message, errors), request.path, request.now)
  // A status whose documented body is not an error body (Novu's trigger documents its own 400): named, not answered 500.
  if (operation.responseValidators.get(status)?.(body) === false) throw generalProblem([`status ${status} of ${operation.operationId} documents a body of its own (a fault rule with respond.body gives it)`])
  return { status, body, headers, forced: true }
}

/** A 429's `Retry-After` and `RateLimit-Reset` agree: a rule's own `Retry-After` sets both. */
function waitOf({ headers = {}, rateLimitReset = '1' }: ForcedRequest): Record<string, string> {
  const wait = headers['Retry-After'] ?? rateLimitReset
  return { ...headers, 'Retry-After': wait, 'RateLimit-Reset': wait }
}
