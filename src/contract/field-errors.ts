import type { ErrorObject } from 'ajv/dist/2020.js'
import type { FieldErrors } from '../http/api-error.ts'

/**
 * Maps Ajv's errors to the `errors` of a ValidationErrorDto: one entry per parameter name or dotted
 * body path, every message kept. `skipSegments` drops a leading segment (`/query/limit` → `limit`).
 */
export function toFieldErrors(errors: readonly ErrorObject[], data: unknown, skipSegments = 0): FieldErrors {
  const fields: FieldErrors = Object.create(null)
  for (const error of errors) {
    const segments = pointerSegments(error.instancePath).slice(skipSegments)
    if (error.keyword === 'required') segments.push(String(error.params.missingProperty))
    const field = segments.length > 0 ? segments.join('.') : 'general'
    const entry = (fields[field] ??= withValue(valueAt(data, pointerSegments(error.instancePath))))
    const message = WORDED[`${field} ${error.keyword}`] ?? messageOf(error)
    if (!entry.messages.includes(message)) entry.messages.push(message)
  }
  return fields
}

/**
 * Messages the live service words its own way, by field and broken rule: it checks set-primary's
 * path parameter in its command (docs/behaviour.md §2.3). Kept here, not in the document, so the
 * published document holds only OpenAPI's own keywords.
 */
const WORDED: Readonly<Record<string, string>> = { 'integrationId pattern': 'integrationId must be a mongodb id' }

function messageOf(error: ErrorObject): string {
  const message = error.message ?? `must pass "${error.keyword}"`
  if (error.keyword === 'enum') return `${message}: ${(error.params.allowedValues as unknown[]).join(', ')}`
  return message
}

function withValue(value: unknown): { messages: string[]; value?: unknown } {
  // The official SDK's schema for `value` refuses arrays that hold arrays; leave those out.
  const unsendable = value === undefined || (Array.isArray(value) && value.some(Array.isArray))
  return unsendable ? { messages: [] } : { messages: [], value }
}

function pointerSegments(pointer: string): string[] {
  if (pointer === '') return []
  return pointer.slice(1).split('/').map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
}

function valueAt(data: unknown, segments: readonly string[]): unknown {
  let current = data
  for (const segment of segments) {
    if (current === null || typeof current !== 'object' || !Object.hasOwn(current, segment)) return undefined
    current = (current as Record<string, unknown>)[segment]
  }
  return current
}
