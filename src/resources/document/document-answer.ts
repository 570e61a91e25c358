import type { ValidateFunction } from 'ajv/dist/2020.js'
import type { Operation } from '../../contract/operation.ts'
import type { Handler } from '../operation-context.ts'
import type { TenantIds } from '../tenant.ts'
import type { Path, Slot, Template } from './answer-template.ts'

/** What a stateless answer is made from: the operation's success schema, and Novu's component schemas. */
export interface AnswerSource {
  /** The schema of the operation's documented success, or undefined for one without a body (a 204). */
  successSchema(operation: Operation): Record<string, unknown> | undefined
  defs(): Record<string, Record<string, unknown>>
}

/** The request's values a template's slots read, by name: path parameters first, then the body's, then the query's. */
type Values = ReadonlyMap<string, unknown>

/**
 * The handler of an operation that keeps no state (docs/behaviour.md §10): its documented success,
 * from a template generated once per seed and operation, filled with the call's time, the tenant's
 * ids and the values the request names. Changes nothing, reads nothing but the request.
 */
export function documentAnswer(operation: Operation, seed: number, source: AnswerSource): Handler {
  let template: Promise<Template | undefined> | undefined
  return async ({ tenant, input, now }) => {
    template ??= built(operation, seed, source)
    const made = await template
    if (made === undefined) return undefined
    const values = valuesOf(input as unknown as RequestValues)
    const filled = fill(made, tenant, now().toISOString(), values)
    // A value of the request that the answer's schema cannot hold (a pattern, a length) is not echoed.
    return valid(operation, filled) ? filled : fill(made, tenant, now().toISOString(), new Map())
  }
}

async function built(operation: Operation, seed: number, source: AnswerSource): Promise<Template | undefined> {
  const schema = source.successSchema(operation)
  if (schema === undefined) return undefined
  // Loaded at the first call of such an operation: faker is a fifth of a start-up.
  const [{ fakerFor }, { templateOf }] = await Promise.all([import('../../seed/generators/seeded-faker.ts'), import('./answer-template.ts')])
  return templateOf(schema, source.defs(), fakerFor(seed, `novu:${operation.operationId}`, 0))
}

interface RequestValues {
  path: Record<string, unknown>
  query: Record<string, unknown>
  body: unknown
}

/** A path's `topicKey` names the topic's `key`; the last path id names the record's `_id`. */
function valuesOf({ path, query, body }: RequestValues): Values {
  const values = new Map<string, unknown>()
  for (const [name, value] of Object.entries(query ?? {})) values.set(name, value)
  if (body !== null && typeof body === 'object' && !Array.isArray(body)) for (const [name, value] of Object.entries(body)) values.set(name, value)
  for (const [name, value] of Object.entries(path ?? {})) values.set(name, value)
  if (path?.topicKey !== undefined) values.set('key', path.topicKey)
  const ids = Object.entries(path ?? {}).filter(([name, value]) => /Id$/.test(name) && typeof value === 'string' && /^[0-9a-f]{24}$/.test(value))
  if (ids.length > 0) values.set('_id', ids.at(-1)![1])
  return values
}

function fill(template: Template, tenant: TenantIds, now: string, values: Values): unknown {
  const answer: unknown = template.text === '' ? undefined : JSON.parse(template.text)
  for (const slot of template.slots) {
    const value = slotValue(slot, tenant, now, values)
    if (value !== undefined) set(answer, slot.path, value)
  }
  return answer
}

function slotValue(slot: Slot, tenant: TenantIds, now: string, values: Values): unknown {
  if (slot.fill !== 'echo') return slot.fill === 'now' ? now : slot.fill === 'organization' ? tenant.organizationId : tenant.environmentId
  const value = values.get(slot.name)
  if (slot.allowed) return slot.allowed.includes(value) ? value : undefined
  return typeof value === 'string' && value !== '' ? value : undefined
}

function set(target: unknown, path: Path, value: unknown): void {
  let node = target as Record<string | number, unknown>
  for (const segment of path.slice(0, -1)) node = node[segment] as Record<string | number, unknown>
  node[path.at(-1)!] = value
}

function valid(operation: Operation, body: unknown): boolean {
  const validate: ValidateFunction | undefined = operation.responseValidators.get(operation.successStatus)
  return validate === undefined || validate(body)
}
