import { faker } from '@faker-js/faker/locale/en'
import { novuComponents, novuOperationsDocument } from '../../src/contract/novu/novu-document.ts'
import { templateOf } from '../../src/resources/document/answer-template.ts'

type Schema = Record<string, unknown>

/** One call of an operation of Novu's document, valid against it, as a test sends it. */
export interface NovuRequest {
  operationId: string
  method: string
  /** The path and query, filled in. */
  url: string
  successStatus: number
  /** The header parameters the document requires. */
  headers: Record<string, string>
  /** JSON, or (multipart) a form. */
  body?: { json: unknown } | { form: FormData }
  /** The body's required fields and enums, for a request that breaks them. */
  required: string[]
  enums: { name: string; values: unknown[] }[]
}

interface Parameter {
  name: string
  in: string
  required?: boolean
  schema: Schema
}

/** A valid request for every operation of Novu's document, made from its schemas (the mock's own generator, a fixed seed). */
export function novuRequests(): NovuRequest[] {
  const doc = novuOperationsDocument()
  const defs = novuComponents().$defs as Record<string, Schema>
  const requests: NovuRequest[] = []
  for (const [template, item] of Object.entries(doc.paths ?? {})) {
    for (const [method, op] of Object.entries(item as Record<string, Record<string, unknown>>)) {
      faker.seed(requests.length + 1)
      const parameters = (op.parameters ?? []) as Parameter[]
      const valueOf = (p: Parameter) => JSON.parse(templateOf(p.schema, defs, faker).text || '""') as unknown
      const path = template.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(String(pathValue(parameters.find((p) => p.name === name)!, valueOf))))
      const headers = Object.fromEntries(parameters.filter((p) => p.in === 'header' && p.required).map((p) => [p.name, String(valueOf(p))]))
      const query = new URLSearchParams()
      for (const p of parameters.filter((p) => p.in === 'query' && p.required)) query.set(p.name, String(valueOf(p)))
      const content = ((op.requestBody as { content?: Record<string, { schema: Schema }> } | undefined)?.content ?? {})
      const json = content['application/json']?.schema
      const form = content['multipart/form-data']?.schema
      const bodySchema = resolved(json ?? form, defs)
      requests.push({
        operationId: String(op.operationId),
        method: method.toUpperCase(),
        url: query.size > 0 ? `${path}?${query}` : path,
        headers,
        successStatus: Number(Object.keys(op.responses as object).find((status) => status.startsWith('2'))),
        body: json ? { json: JSON.parse(templateOf(json, defs, faker).text) } : form ? { form: formOf(form) } : undefined,
        required: (bodySchema?.required ?? []) as string[],
        enums: Object.entries((bodySchema?.properties ?? {}) as Record<string, Schema>).flatMap(([name, property]) => (Array.isArray(property.enum) ? [{ name, values: property.enum }] : [])),
      })
    }
  }
  return requests
}

function pathValue(parameter: Parameter, valueOf: (p: Parameter) => unknown): unknown {
  if (Array.isArray(parameter.schema.enum)) return parameter.schema.enum[0]
  // Ids named as the service names its records' ids: ObjectIds, as a client has them.
  return /Id$/.test(parameter.name) ? '64f2000000000000000000aa' : valueOf(parameter) || 'x'
}

function resolved(schema: Schema | undefined, defs: Record<string, Schema>): Schema | undefined {
  if (schema && typeof schema.$ref === 'string') return defs[schema.$ref.split('/').pop()!]
  return schema
}

function formOf(schema: Schema): FormData {
  const form = new FormData()
  for (const name of (schema.required ?? []) as string[]) {
    const property = (schema.properties as Record<string, Schema>)[name]!
    const file = new Blob(['{"hello":"Hello"}'], { type: 'application/json' })
    if (property.type === 'array') form.append(name, file, 'en_US.json')
    else if (name === 'file') form.append(name, file, 'en_US.json')
    else form.append(name, Array.isArray(property.enum) ? String(property.enum[0]) : 'welcome-email')
  }
  return form
}
