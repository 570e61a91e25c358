import { readFileSync } from 'node:fs'
import type { OpenAPIV3_1 } from 'openapi-types'
import { packagePath } from '../../lib/package-path.ts'
import { componentsSchema, jsonSchemaOf, PAGE_ANSWER } from './openapi30.ts'

export const NOVU_DOCUMENT = packagePath('spec/novu/novu-openapi.json')
export const NOVU_SDK_METHODS = packagePath('spec/novu/sdk-methods.json')

/** The name of Novu's document in validator keys and the build. */
export const NOVU = 'novu'

let read: OpenAPIV3_1.Document | undefined

/** Novu's document as published, read once, when first needed (never at a start-up from the build). */
export function novuDocument(): OpenAPIV3_1.Document {
  read ??= JSON.parse(readFileSync(NOVU_DOCUMENT, 'utf8')) as OpenAPIV3_1.Document
  return read
}

let components: Record<string, unknown> | undefined

/** Novu's component schemas, converted, as the one schema its validators and answers refer into. */
export function novuComponents(): Record<string, unknown> {
  components ??= componentsSchema((novuDocument().components?.schemas ?? {}) as Record<string, unknown>)
  return components
}

const METHODS = ['get', 'put', 'post', 'patch', 'delete'] as const

/**
 * The document's operations with their schemas converted (docs/behaviour.md §10), without its
 * components: small enough for the build to keep beside the other documents, so a start-up never
 * reads Novu's 3 MB.
 */
export function novuOperationsDocument(): OpenAPIV3_1.Document {
  const doc = novuDocument()
  const paths: OpenAPIV3_1.PathsObject = {}
  for (const [template, item] of Object.entries(doc.paths ?? {})) {
    const own: Record<string, unknown> = {}
    for (const method of METHODS) {
      const op = item?.[method]
      if (op) own[method] = { ...convertedOperation(op), ...(isPage(op, doc) ? { [PAGE_ANSWER]: true } : {}) }
    }
    paths[template] = own
  }
  return { openapi: '3.1.0', info: doc.info, paths, security: doc.security } as OpenAPIV3_1.Document
}

function convertedOperation(op: OpenAPIV3_1.OperationObject): OpenAPIV3_1.OperationObject {
  const parameters = ((op.parameters ?? []) as OpenAPIV3_1.ParameterObject[]).map(({ name, in: where, required, schema }) => ({ name, in: where, required, schema: jsonSchemaOf(schema ?? {}) }))
  const body = op.requestBody as OpenAPIV3_1.RequestBodyObject | undefined
  const requestBody = body && { required: body.required, content: contentOf(body.content) }
  const responses = Object.fromEntries(
    Object.entries(op.responses ?? {}).map(([status, response]) => [status, { description: '', content: contentOf((response as OpenAPIV3_1.ResponseObject).content ?? {}) }]),
  )
  return { operationId: op.operationId, security: op.security, parameters, requestBody, responses } as OpenAPIV3_1.OperationObject
}

/** A success whose schema has its own `data` beside a page's counts: the live service sends it as it is. */
function isPage(op: OpenAPIV3_1.OperationObject, doc: OpenAPIV3_1.Document): boolean {
  const success = Object.entries(op.responses ?? {}).find(([status]) => status.startsWith('2'))?.[1] as OpenAPIV3_1.ResponseObject | undefined
  const ref = (success?.content?.['application/json']?.schema as { $ref?: string } | undefined)?.$ref
  const schema = ref && (doc.components?.schemas?.[ref.split('/').pop()!] as { properties?: Record<string, unknown> } | undefined)
  const names = Object.keys((schema && schema.properties) ?? {})
  return names.includes('data') && names.some((name) => ['next', 'totalCount', 'hasMore', 'page'].includes(name))
}

function contentOf(content: Record<string, OpenAPIV3_1.MediaTypeObject>): Record<string, OpenAPIV3_1.MediaTypeObject> {
  return Object.fromEntries(Object.entries(content).map(([type, media]) => [type, media.schema === undefined ? {} : { schema: jsonSchemaOf(media.schema) as OpenAPIV3_1.SchemaObject }]))
}
