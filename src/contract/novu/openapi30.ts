type JsonSchema = Record<string, unknown>

/** The mark the build puts on an operation of Novu's whose success is a page with its own `data`. */
export const PAGE_ANSWER = 'x-novu-mock-page'

/** The id under which Novu's component schemas are added to an Ajv instance; refs read `<id>#/$defs/<name>`. */
export const NOVU_SCHEMAS_ID = 'https://novu-mock.invalid/novu-schemas'

/** The keywords of JSON Schema that Ajv checks and Novu's document uses; the rest (descriptions, `x-…`, `discriminator`) are left out. */
const KEPT: ReadonlySet<string> = new Set([
  'type', 'properties', 'required', 'items', 'enum', 'allOf', 'anyOf', 'additionalProperties',
  'minLength', 'maxLength', 'pattern', 'minimum', 'maximum', 'minItems', 'maxItems', 'default', 'example', '$ref', 'format',
])
/** Keywords whose values are data, not schemas. */
const DATA: ReadonlySet<string> = new Set(['enum', 'default', 'example', 'required', 'type', 'pattern', 'format'])
/** Formats ajv-formats checks and that mean the same in OpenAPI 3.0 (`binary`, a file, is any string). */
const FORMATS: ReadonlySet<string> = new Set(['date-time', 'uuid', 'email', 'uri'])

/**
 * A schema of Novu's document (OpenAPI 3.0) as JSON Schema 2020 for Ajv: `nullable` becomes a
 * `null` type, `oneOf` is read as `anyOf` (the document's branches overlap: a step or an endpoint
 * matches several), refs to `#/components/schemas/<name>` point into the components' schema
 * registered as `novu`, and keywords Ajv would refuse in strict mode are left out.
 */
export function jsonSchemaOf(node: unknown): JsonSchema {
  return converted(node) as JsonSchema
}

function converted(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(converted)
  if (node === null || typeof node !== 'object') return node
  const source = node as Record<string, unknown>
  const schema: Record<string, unknown> = {}
  for (const [word, value] of Object.entries(source)) {
    const key = word === 'oneOf' ? 'anyOf' : word
    if (!KEPT.has(key)) continue
    if (key === 'format' && !FORMATS.has(String(value))) continue
    if (key === 'pattern') {
      const pattern = patternOf(String(value))
      if (pattern !== undefined) schema.pattern = pattern
      continue
    }
    if (key === '$ref') schema.$ref = String(value).replace('#/components/schemas/', `${NOVU_SCHEMAS_ID}#/$defs/`)
    else if (key === 'properties') schema.properties = Object.fromEntries(Object.entries(value as object).map(([name, sub]) => [name, converted(sub)]))
    else schema[key] = DATA.has(key) ? value : converted(value)
  }
  return source.nullable === true ? nullable(schema) : schema
}

/**
 * A pattern as a regular expression's source. The document writes some as JavaScript literals
 * (`/^[A-Za-z]…$/`), and some as the name of a constant of Novu's code (`SLUG_IDENTIFIER_REGEX`),
 * which says nothing the mock can check: those are left out (docs/decisions.md).
 */
function patternOf(pattern: string): string | undefined {
  if (/^[A-Z][A-Z0-9_]*$/.test(pattern)) return undefined
  const literal = /^\/(.*)\/[a-z]*$/.exec(pattern)
  return literal ? literal[1] : pattern
}

function nullable(schema: Record<string, unknown>): Record<string, unknown> {
  if (typeof schema.type === 'string') {
    const enumed = Array.isArray(schema.enum) ? { enum: [...(schema.enum as unknown[]), null] } : {}
    return { ...schema, type: [schema.type, 'null'], ...enumed }
  }
  return { anyOf: [schema, { type: 'null' }] }
}

/** Every component schema of the document, converted, under `$defs`: the one schema every Novu validator refers into. */
export function componentsSchema(components: Record<string, unknown>): JsonSchema {
  return { $id: NOVU_SCHEMAS_ID, $defs: Object.fromEntries(Object.entries(components).map(([name, schema]) => [name, converted(schema)])) }
}
