import type { ErrorObject } from 'ajv/dist/2020.js'
import type { FieldErrors } from '../../answer/api-error.ts'
import { pointerSegments } from './validation-messages.ts'

/**
 * Maps Ajv's errors to the `errors` of the control plane's ValidationErrorDto (and the proxy's
 * report): one entry per parameter name or dotted body path, every message kept. `skipSegments`
 * drops a leading segment (`/query/limit` → `limit`).
 */
export function toFieldErrors(errors: readonly ErrorObject[], data: unknown, skipSegments = 0): FieldErrors {
  const fields: FieldErrors = Object.create(null)
  for (const error of errors) {
    // Ajv adds this summary after the error that names the property: the latter says it all.
    if (error.keyword === 'propertyNames') continue
    const segments = pointerSegments(error.instancePath).slice(skipSegments)
    if (error.keyword === 'required') segments.push(String(error.params.missingProperty))
    const field = segments.length > 0 ? segments.join('.') : 'general'
    const entry = (fields[field] ??= withValue(valueAt(data, pointerSegments(error.instancePath))))
    const message = messageOf(error)
    if (!entry.messages.includes(message)) entry.messages.push(message)
  }
  return fields
}

function messageOf(error: ErrorObject): string {
  const own = error.message ?? `must pass "${error.keyword}"`
  // A broken rule of `propertyNames` is about a name, which the path (its object's) does not show.
  const message = error.propertyName === undefined ? own : `property name ${JSON.stringify(error.propertyName)} ${own}`
  if (error.keyword === 'enum') return `${message}: ${(error.params.allowedValues as unknown[]).join(', ')}`
  return message
}

function withValue(value: unknown): { messages: string[]; value?: unknown } {
  // The official SDK's schema for `value` refuses arrays that hold arrays; leave those out.
  const unsendable = value === undefined || (Array.isArray(value) && value.some(Array.isArray))
  return unsendable ? { messages: [] } : { messages: [], value }
}

function valueAt(data: unknown, segments: readonly string[]): unknown {
  let current = data
  for (const segment of segments) {
    if (current === null || typeof current !== 'object' || !Object.hasOwn(current, segment)) return undefined
    current = (current as Record<string, unknown>)[segment]
  }
  return current
}
