import type { Operation } from '../contract/operation.ts'
import { ApiError, validationFailed } from '../http/api-error.ts'
import { errorBody } from '../http/error-body.ts'
import type { Answer } from '../http/respond.ts'

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
}

/**
 * An answer that does not run the operation and changes nothing. Only statuses the operation
 * documents may be forced; the answer is still checked against the document on its way out.
 */
export function forcedAnswer(operation: Operation, request: ForcedRequest): Answer {
  const { status } = request
  if (!operation.responseValidators.has(status)) {
    throw validationFailed({ prefer: { messages: [`status ${status} is not documented for ${operation.operationId}`], value: status } })
  }
  const headers = request.headers ?? {}
  if (request.body !== undefined) return { status, body: request.body, headers, forced: true }
  if (status < 300) {
    const example = operation.example(status, request.exampleName)
    if (example === undefined) {
      const which = request.exampleName === undefined ? 'an example' : `an example named "${request.exampleName}"`
      throw validationFailed({ prefer: { messages: [`the document has no ${which} for ${operation.operationId} ${status}`] } })
    }
    return { status, body: example, headers, forced: true }
  }
  const errors = status === 422 ? { errors: { general: { messages: [request.message] } } } : {}
  return { status, body: errorBody(new ApiError(status, 'FORCED', request.message, errors), request.path, request.now), headers, forced: true }
}
