import { validationFailed, type FieldErrors } from '../http/api-error.ts'
import { toFieldErrors } from './field-errors.ts'
import type { Operation, RequestParams } from './operation.ts'

export interface ValidatedInput extends RequestParams {
  body: unknown
}

/**
 * Checks parameters (coerced, defaults filled) and body (unknown fields stripped) against the
 * operation's document, and throws one 422 listing every problem of both.
 */
export function validateRequest(operation: Operation, params: RequestParams, body: unknown): ValidatedInput {
  const paramErrors = operation.validateParams(params) ? undefined : toFieldErrors(operation.validateParams.errors ?? [], params, 1)
  const bodyErrors = bodyErrorsOf(operation.validateBody, body)
  if (paramErrors || bodyErrors) {
    const errors: FieldErrors = Object.assign(Object.create(null), paramErrors, bodyErrors)
    if (Object.keys(errors).length > 0) throw validationFailed(errors)
  }
  // Named rather than spread: a spread followed by a new field takes V8's slow path (docs/decisions.md, 2026-11-24).
  return { path: params.path, query: params.query, header: params.header, body }
}

function bodyErrorsOf(validateBody: Operation['validateBody'], body: unknown): FieldErrors | undefined {
  if (!validateBody) return undefined
  if (body === undefined) return { general: { messages: ['request body is required'] } }
  return validateBody(body) ? undefined : toFieldErrors(validateBody.errors ?? [], body)
}
