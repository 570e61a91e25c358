import type { ValidateFunction } from 'ajv/dist/2020.js'
import type { OpenAPIV3_1 } from 'openapi-types'
import type { BodyHandling } from './ajv-instances.ts'
import { closedCopy } from './closed-schema.ts'
import type { Operation, ParamLocation, ResponseValidators, SplitBody, Wording } from './operation.ts'
import type { JsonSchema, ValidatorSource } from './validator-source.ts'

const METHODS = ['get', 'put', 'post', 'patch', 'delete'] as const
const LOCATIONS: readonly ParamLocation[] = ['path', 'query', 'header']
const JSON_TYPE = 'application/json'

type Parameter = OpenAPIV3_1.ParameterObject

/**
 * Every operation of a dereferenced document, keyed by operationId. `name` names the document
 * in the validators' keys.
 */
export function compileOperations(
  doc: OpenAPIV3_1.Document,
  name: string,
  source: ValidatorSource,
  { bodies, wording }: { bodies: BodyHandling; wording: Wording },
): Map<string, Operation> {
  const bodyKind = bodies === 'exact' ? 'exactBody' : 'strippingBody'
  const operations = new Map<string, Operation>()
  for (const [pathTemplate, item] of Object.entries(doc.paths ?? {})) {
    for (const method of METHODS) {
      const op = item?.[method]
      if (!op) continue
      if (!op.operationId) throw new Error(`${method.toUpperCase()} ${pathTemplate} has no operationId`)
      const parameters = [...(item.parameters ?? []), ...(op.parameters ?? [])] as Parameter[]
      const body = (op.requestBody as OpenAPIV3_1.RequestBodyObject | undefined)?.content[JSON_TYPE]?.schema
      const key = `${name}:${op.operationId}`
      const params = once(() => source.validator('params', `${key}:params`, () => paramsSchema(parameters)))
      // A stripping validator checks a closed copy: the document's open bodies would strip nothing.
      const bodySchema = () => (bodies === 'exact' ? (body as JsonSchema) : closedCopy(body as JsonSchema))
      const bodyValidator = body === undefined ? undefined : once(() => source.validator(bodyKind, `${key}:body`, bodySchema))
      const split = bodies === 'exact' && body !== undefined ? once(() => splitBodyOf(body as JsonSchema, 'exactBody', `${key}:body`, source)) : () => undefined
      const responses = lazyResponses(op, key, source)
      const success = successStatusOf(op)
      const answer = contentOf(op, success)?.schema as JsonSchema | undefined
      const splitAnswer = answer === undefined ? () => undefined : once(() => splitBodyOf(answer, 'response', `${key}:response:${success}`, source))
      operations.set(op.operationId, {
        operationId: op.operationId,
        method: method.toUpperCase(),
        pathTemplate,
        routePath: pathTemplate.replace(/\{([^}]+)\}/g, ':$1'),
        successStatus: success,
        requiresAuth: (op.security ?? doc.security ?? []).length > 0,
        takesBody: body !== undefined,
        wording,
        headerNames: parameters.filter((p) => p.in === 'header').map((p) => p.name.toLowerCase()),
        get validateParams() {
          return params()
        },
        get validateBody() {
          return bodyValidator?.()
        },
        get splitBody() {
          return split()
        },
        get splitResponse() {
          return splitAnswer()
        },
        responseValidators: responses,
        example: (status, name) => exampleOf(op, status, name),
        exampleNames: (status) => Object.keys(contentOf(op, status)?.examples ?? {}),
        warm() {
          params()
          bodyValidator?.()
          split()
          splitAnswer()
          responses.warm()
        },
      })
    }
  }
  return operations
}

function once<T>(make: () => T): () => T {
  let made: { value: T } | undefined
  return () => (made ??= { value: make() }).value
}

/** What an array property's schema may hold besides `items` for its records to be checked one by one. */
const ITEMS_ONLY: ReadonlySet<string> = new Set(['type', 'items', 'description', 'title', 'example', 'examples'])

/** The records of an object body's array properties, each checked by its own validator: undefined for a body without them. */
function splitBodyOf(body: JsonSchema, kind: 'exactBody' | 'response', key: string, source: ValidatorSource): SplitBody | undefined {
  const properties = (body.type === 'object' ? body.properties : undefined) as Record<string, JsonSchema> | undefined
  if (!properties) return undefined
  const items = new Map<string, ValidateFunction>()
  for (const [name, schema] of Object.entries(properties)) {
    if (schema.type !== 'array' || schema.items === undefined || !Object.keys(schema).every((word) => ITEMS_ONLY.has(word))) continue
    items.set(name, source.validator(kind, `${key}:items:${name}`, () => schema.items as JsonSchema))
  }
  return items.size === 0 ? undefined : { order: Object.keys(properties), items }
}

function paramsSchema(parameters: Parameter[]): JsonSchema {
  const properties: Record<string, JsonSchema> = {}
  for (const location of LOCATIONS) {
    const own = parameters.filter((p) => p.in === location)
    const name = (p: Parameter) => (location === 'header' ? p.name.toLowerCase() : p.name)
    properties[location] = {
      type: 'object',
      properties: Object.fromEntries(own.map((p) => [name(p), p.schema ?? {}])),
      required: own.filter((p) => p.required).map(name),
    }
  }
  return { type: 'object', properties, required: [...LOCATIONS] }
}

function successStatusOf(op: OpenAPIV3_1.OperationObject): number {
  const status = Object.keys(op.responses ?? {}).map(Number).find((code) => code >= 200 && code < 300)
  if (status === undefined) throw new Error(`${op.operationId} documents no 2xx response`)
  return status
}

function lazyResponses(op: OpenAPIV3_1.OperationObject, key: string, source: ValidatorSource): ResponseValidators & { warm(): void } {
  const compilers = new Map<number, () => ValidateFunction>()
  for (const [code, response] of Object.entries(op.responses ?? {})) {
    const schema = (response as OpenAPIV3_1.ResponseObject).content?.[JSON_TYPE]?.schema
    if (schema) compilers.set(Number(code), once(() => source.validator('response', `${key}:response:${code}`, () => schema as JsonSchema)))
  }
  return {
    get: (status) => compilers.get(status)?.(),
    has: (status) => compilers.has(status),
    warm: () => compilers.forEach((compile) => compile()),
  }
}

const contentOf = (op: OpenAPIV3_1.OperationObject, status: number) => (op.responses?.[String(status)] as OpenAPIV3_1.ResponseObject | undefined)?.content?.[JSON_TYPE]

function exampleOf(op: OpenAPIV3_1.OperationObject, status: number, name: string | undefined): unknown {
  const content = contentOf(op, status)
  if (!content) return undefined
  if (name !== undefined) return (content.examples?.[name] as OpenAPIV3_1.ExampleObject | undefined)?.value
  const schema = content.schema as { example?: unknown; type?: unknown; items?: { example?: unknown } } | undefined
  if (schema?.example !== undefined) return schema.example
  return schema?.type === 'array' && schema.items?.example !== undefined ? [schema.items.example] : undefined
}
