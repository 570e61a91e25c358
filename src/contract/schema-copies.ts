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

/** A subschema of more JSON than this is a definition of its own in `withOwnDefinitions`. */
const OWN_DEFINITION_CHARS = 2_000

/**
 * A copy of a dereferenced schema in which each large property or item schema is a definition of
 * its own (`$defs`), referred to where it stood. Ajv then compiles each as a function of its own
 * instead of writing the whole tree out as one: a message's schema written out whole was one
 * function of 378 KB of code, too large for V8 to optimize, and checking an answer with it cost
 * about three times as much (docs/decisions.md, 2026-11-28). Every verdict is the same; a problem
 * found inside such a definition has its `schemaPath` from the definition's root. A subschema the
 * document shares (one object in the dereferenced tree) is one definition.
 */
export function withOwnDefinitions(schema: JsonSchema): JsonSchema {
  const definitions: Record<string, unknown> = {}
  const names = new Map<object, string>()
  const walk = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(walk)
    if (node === null || typeof node !== 'object') return node
    const copy: Record<string, unknown> = {}
    for (const [key, value] of Object.entries(node)) {
      if (DATA.has(key)) copy[key] = value
      else if (key === 'properties' && isObject(value)) copy[key] = Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, own(sub)]))
      else if (key === 'items' && isObject(value)) copy[key] = own(value)
      else copy[key] = walk(value)
    }
    return copy
  }
  const own = (sub: unknown): unknown => {
    if (!isObject(sub) || JSON.stringify(sub).length <= OWN_DEFINITION_CHARS) return walk(sub)
    let name = names.get(sub)
    if (name === undefined) {
      names.set(sub, (name = `own${names.size}`))
      definitions[name] = walk(sub)
    }
    return { $ref: `#/$defs/${name}` }
  }
  const copy = walk(schema) as JsonSchema
  return names.size === 0 ? copy : { ...copy, $defs: { ...(copy.$defs as object | undefined), ...definitions } }
}

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value)
