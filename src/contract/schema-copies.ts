import type { JsonSchema } from './validator-source.ts'

/**
 * A copy of a request body's schema with every object schema that says nothing of other fields
 * closed (`additionalProperties: false`). The document leaves request bodies open, as the mock
 * accepts extra fields (docs/behaviour.md §1.4); Ajv's `removeAdditional` strips only under a
 * closed object, so the stripping validator compiles this copy, and no extra field reaches a
 * stored record or an answer. A copy: the dereferenced document shares these objects with the
 * responses' schemas.
 */
export function closedCopy(schema: JsonSchema): JsonSchema {
  return closed(schema) as JsonSchema
}

/** Keywords whose values are data, not schemas. */
const DATA = new Set(['example', 'examples', 'enum', 'const', 'default'])

function closed(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(closed)
  if (node === null || typeof node !== 'object') return node
  const copy: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(node)) copy[key] = DATA.has(key) ? value : closed(value)
  const open = copy.additionalProperties === undefined && copy.unevaluatedProperties === undefined
  if (copy.type === 'object' && typeof copy.properties === 'object' && open) copy.additionalProperties = false
  return copy
}
