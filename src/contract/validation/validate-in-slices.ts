import type { ErrorObject, ValidateFunction } from 'ajv/dist/2020.js'
import { inSlices, type Steps } from '../../lib/slices.ts'
import type { Operation, RequestParams, SplitBody } from '../operation.ts'
import { fieldError, validateRequest, type ValidatedInput } from './validate-request.ts'

/**
 * `validateRequest` for a call whose body may be a whole state (docs/behaviour.md §6): its records
 * are checked in slices, between turns of the event loop, to the same verdict and the same 422
 * (problems, order, wording) as the body's validator in one piece. Any other body is checked whole.
 */
export async function validateRequestInSlices(operation: Operation, params: RequestParams, body: unknown): Promise<ValidatedInput> {
  const split = operation.wording === 'fields' ? operation.splitBody : undefined
  if (!split || !operation.validateBody || !isObject(body)) return validateRequest(operation, params, body)
  const bodyErrors = await inSlices(bodyErrorSteps(operation.validateBody, split, body))
  if (!operation.validateParams(params) || bodyErrors.length > 0) {
    throw fieldError(operation, operation.validateParams.errors ?? [], params, body, bodyErrors)
  }
  return { path: params.path, query: params.query, header: params.header, body }
}

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value)

/**
 * The body's problems: the object with its split arrays emptied, by the body's validator; then each
 * record, one step each. Put in the order the whole validator finds them: the object's own first
 * (a missing or unknown property), then by property in the schema's order.
 */
export function* bodyErrorSteps(validateBody: ValidateFunction, { order, items }: SplitBody, body: Record<string, unknown>): Steps<ErrorObject[]> {
  const envelope: Record<string, unknown> = {}
  const records = new Map<string, readonly unknown[]>()
  for (const key of Object.keys(body)) {
    const value = body[key]
    const splits = items.has(key) && Array.isArray(value)
    if (splits) records.set(key, value)
    // Defined, not assigned: a member named `__proto__` stays a member.
    Object.defineProperty(envelope, key, { value: splits ? [] : value, writable: true, enumerable: true, configurable: true })
  }
  const errors: ErrorObject[] = validateBody(envelope) ? [] : [...(validateBody.errors ?? [])]
  for (const [key, validate] of items) {
    const list = records.get(key) ?? []
    for (let index = 0; index < list.length; index++) {
      if (!validate(list[index])) for (const error of validate.errors ?? []) errors.push({ ...error, instancePath: `/${pointer(key)}/${index}${error.instancePath}` })
      yield
    }
  }
  const ranks = new Map(order.map((key, at) => [pointer(key), at]))
  const rank = (error: ErrorObject) => ranks.get(error.instancePath.split('/')[1] ?? '') ?? -1
  // Stable: each property's problems keep their order.
  return errors.map((error, at) => ({ error, at, rank: rank(error) })).sort((a, b) => a.rank - b.rank || a.at - b.at).map(({ error }) => error)
}

const pointer = (key: string) => key.replace(/~/g, '~0').replace(/\//g, '~1')
