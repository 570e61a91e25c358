import type { ErrorObject } from 'ajv/dist/2020.js'
import type { Violation } from '../answer/answer.ts'
import type { Contract } from '../contract/load-contract.ts'

export type { Violation } from '../answer/answer.ts'

export interface CheckedAnswer {
  violations: Violation[]
  /** Fields the document does not list, and the live envelope: allowed from a real service. */
  notes: string[]
  body?: unknown
}

/**
 * Checks another server's answer against the document: documented status, JSON media type, and
 * the body with the server's own compiled validators. Extra fields are notes, not violations.
 */
export function checkAnswer(api: Contract, operationId: string, status: number, headers: Headers, text: string): CheckedAnswer {
  const checked: CheckedAnswer = { violations: [], notes: [] }
  // A status documented without a body (a 204 of Novu's document) is checked as no body.
  if (text === '' && api.operations.get(operationId)?.responseValidators.get(status)?.(undefined) === true) return checked
  const contentType = headers.get('content-type')
  if (!/^application\/json\b/.test(contentType ?? '')) checked.violations.push({ message: `Content-Type is "${contentType}", not application/json` })
  checked.violations.push(...headerViolations(api, operationId, status, headers))
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch {
    checked.violations.push({ message: 'the body is not JSON', value: text.slice(0, 200) })
    return checked
  }
  body = unwrapped(operationId, status, body, checked)
  checked.body = body
  const validate = api.operations.get(operationId)?.responseValidators.get(status)
  if (!validate) {
    checked.violations.push({ message: `status ${status} is not documented for ${operationId}` })
    return checked
  }
  if (validate(body)) return checked
  for (const error of validate.errors ?? []) {
    if (error.keyword === 'additionalProperties' || error.keyword === 'unevaluatedProperties') checked.notes.push(extraFieldNote(error))
    else checked.violations.push({ message: error.message ?? error.keyword, instancePath: error.instancePath, schemaPath: error.schemaPath, value: valueAt(body, error.instancePath) })
  }
  return checked
}

/** The live service wraps results as `{"data": …}` (the list page excepted); both forms pass. */
function unwrapped(operationId: string, status: number, body: unknown, checked: CheckedAnswer): unknown {
  const wrapped =
    status < 300 && operationId !== 'listChannelConnections' && body !== null && typeof body === 'object' && !Array.isArray(body) && Object.keys(body).length === 1 && 'data' in body
  if (!wrapped) return body
  checked.notes.push('result enveloped as {"data": …}')
  return (body as { data: unknown }).data
}

function extraFieldNote(error: ErrorObject): string {
  const params = error.params as { additionalProperty?: string; unevaluatedProperty?: string }
  return `extra field "${params.additionalProperty ?? params.unevaluatedProperty}" at ${error.instancePath || '/'}`
}

export function valueAt(body: unknown, pointer: string): unknown {
  let current = body
  for (const segment of pointer.split('/').slice(1)) {
    if (current === null || typeof current !== 'object') return undefined
    current = (current as Record<string, unknown>)[segment.replace(/~1/g, '/').replace(/~0/g, '~')]
  }
  return current
}

type HeaderSchema = { type?: string; enum?: string[] }

/** Documented response headers that are present must hold values of their schema's type. */
function headerViolations(api: Contract, operationId: string, status: number, headers: Headers): Violation[] {
  const operation = api.operations.get(operationId)
  if (!operation) return []
  const item = api.document.paths?.[operation.pathTemplate] as Record<string, { responses?: Record<string, { headers?: Record<string, { schema?: HeaderSchema }> }> }> | undefined
  const documented = item?.[operation.method.toLowerCase()]?.responses?.[String(status)]?.headers ?? {}
  const violations: Violation[] = []
  for (const [name, { schema }] of Object.entries(documented)) {
    const value = headers.get(name)
    if (value === null || !schema) continue
    const wrongType = schema.type === 'integer' && !/^-?\d+$/.test(value.trim())
    const notListed = schema.enum !== undefined && !schema.enum.includes(value)
    if (wrongType || notListed) {
      violations.push({ message: `header ${name} must be ${wrongType ? 'an integer' : `one of ${schema.enum!.join(', ')}`}`, instancePath: `header ${name}`, value })
    }
  }
  return violations
}
