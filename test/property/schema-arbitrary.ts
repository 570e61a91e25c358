import fc from 'fast-check'

type Schema = {
  type?: string | string[]
  enum?: unknown[]
  anyOf?: Schema[]
  oneOf?: Schema[]
  pattern?: string
  minimum?: number
  maximum?: number
  minItems?: number
  maxItems?: number
  items?: Schema
  properties?: Record<string, Schema>
  required?: string[]
}

/** Values that a (dereferenced) JSON Schema of the document accepts; small, for fast runs. */
export function arbitraryOf(schema: Schema): fc.Arbitrary<unknown> {
  if (schema.enum) return fc.constantFrom(...schema.enum)
  const branches = schema.anyOf ?? schema.oneOf
  if (branches) return fc.oneof(...branches.map(arbitraryOf))
  if (Array.isArray(schema.type)) return fc.oneof(...schema.type.map((type) => arbitraryOf({ ...schema, type })))
  switch (schema.type) {
    case 'string':
      return schema.pattern ? fc.stringMatching(new RegExp(schema.pattern)) : fc.string({ maxLength: 12 })
    case 'integer':
      return fc.integer({ min: schema.minimum ?? -1000, max: schema.maximum ?? 1000 })
    case 'number':
      return fc.double({ min: schema.minimum ?? -1000, max: schema.maximum ?? 1000, noNaN: true })
    case 'boolean':
      return fc.boolean()
    case 'null':
      return fc.constant(null)
    case 'array':
      return fc.array(arbitraryOf(schema.items ?? {}), { minLength: schema.minItems ?? 0, maxLength: Math.min(schema.maxItems ?? 4, 4) })
    case 'object': {
      const properties = Object.fromEntries(Object.entries(schema.properties ?? {}).map(([name, s]) => [name, arbitraryOf(s)]))
      return fc.record(properties, { requiredKeys: schema.required ?? [] })
    }
    default:
      return fc.constant({})
  }
}
