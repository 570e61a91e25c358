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
  const errors: FieldErrors = Object.create(null)
  if (!operation.validateParams(params)) {
    Object.assign(errors, toFieldErrors(operation.validateParams.errors ?? [], params, 1))
  }
  const validateBody = operation.validateBody
  if (validateBody && body === undefined) {
    errors.general = { messages: ['request body is required'] }
  } else if (validateBody && !validateBody(body)) {
    Object.assign(errors, toFieldErrors(validateBody.errors ?? [], body))
  }
  if (Object.keys(errors).length > 0) throw validationFailed(errors)
  return { ...params, body }
}
