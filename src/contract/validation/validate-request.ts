import type { ErrorObject } from 'ajv/dist/2020.js'
import { ApiError, NO_VALUE, validationFailed, type FieldErrors } from '../../answer/api-error.ts'
import { toFieldErrors } from './field-errors.ts'
import type { Operation, RequestParams } from '../operation.ts'
import { problemsOf, type Location } from './validation-messages.ts'

export interface ValidatedInput extends RequestParams {
  body: unknown
}

/**
 * Checks parameters (coerced, defaults filled) and body (unknown fields stripped) against the
 * operation's document, and throws one 422 listing every problem of both.
 */
export function validateRequest(operation: Operation, params: RequestParams, body: unknown): ValidatedInput {
  const paramsValid = operation.validateParams(params)
  const bodyValid = !operation.validateBody || (body !== undefined && operation.validateBody(body))
  if (!paramsValid || !bodyValid) {
    const paramErrors = paramsValid ? [] : (operation.validateParams.errors ?? [])
    throw operation.wording === 'service' ? serviceError(operation, paramErrors, params, body) : fieldError(operation, paramErrors, params, body)
  }
  // Named rather than spread: a spread followed by a new field takes V8's slow path (docs/decisions.md, 2026-11-24).
  return { path: params.path, query: params.query, header: params.header, body }
}

/**
 * The live service's 422: every problem under `general`, worded as class-validator words it; a
 * path parameter keeps a key of its own (the service checks it in its command, not its DTO).
 */
function serviceError(operation: Operation, paramErrors: readonly ErrorObject[], params: RequestParams, body: unknown): ApiError {
  const problems = [
    ...problemsOf(paramErrors, (segments) => ({ location: segments[0] as Location, segments: segments.slice(1) })),
    ...problemsOf(bodyErrors(operation, body), (segments) => ({ location: 'body', segments })),
  ]
  const errors: FieldErrors = Object.create(null)
  const general = new Set<string>()
  for (const { location, property, messages } of problems) {
    if (location !== 'path') messages.forEach((message) => general.add(message))
    else (errors[property] ??= { messages: [], value: params.path[property] }).messages.push(...messages)
  }
  if (general.size > 0) errors.general = { messages: [...general], value: NO_VALUE }
  const fields = problems.map(({ location, property }) => (location === 'body' ? property : `${location}.${property}`))
  return new ApiError(422, 'VALIDATION_ERROR', 'Validation Error', { errors, fields })
}

/** A body that is not an object (or none) is worded as the live service words it: each required field missing. */
function bodyErrors({ validateBody }: Operation, body: unknown): readonly ErrorObject[] {
  if (!validateBody) return []
  const isObject = body !== null && typeof body === 'object' && !Array.isArray(body)
  return validateBody(isObject ? body : {}) ? [] : [...(validateBody.errors ?? [])]
}

/**
 * The control plane's 422: problems by parameter name or body path, in Ajv's words. `bodyErrors`:
 * the body's, when they were found already (in slices).
 */
export function fieldError({ validateBody }: Operation, paramErrors: readonly ErrorObject[], params: RequestParams, body: unknown, bodyErrors?: readonly ErrorObject[]): ApiError {
  const errors: FieldErrors = Object.assign(Object.create(null), paramErrors.length > 0 ? toFieldErrors(paramErrors, params, 1) : undefined)
  if (validateBody && body === undefined) errors.general = { messages: ['request body is required'] }
  else if (bodyErrors) Object.assign(errors, toFieldErrors(bodyErrors, body))
  else if (validateBody && !validateBody(body)) Object.assign(errors, toFieldErrors(validateBody.errors ?? [], body))
  return validationFailed(errors)
}
