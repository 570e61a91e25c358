import type { ValidateFunction } from 'ajv/dist/2020.js'
import type { OpenAPIV3_1 } from 'openapi-types'
import type { BodyHandling, ValidatorKind } from './ajv-instances.ts'
import { closedCopy, withOwnDefinitions } from './schema-copies.ts'
import type { Operation, ParamLocation, ResponseValidators, SplitBody, Wording } from './operation.ts'
import type { JsonSchema, ValidatorSource } from './validator-source.ts'
import { PAGE_ANSWER } from './novu/openapi30.ts'

const METHODS = ['get', 'put', 'post', 'patch', 'delete'] as const
const LOCATIONS: readonly ParamLocation[] = ['path', 'query', 'header']
const JSON_TYPE = 'application/json'
const MULTIPART = 'multipart/form-data'
/** The body types an operation may declare; the first it declares is the one checked. */
const BODY_TYPES = [JSON_TYPE, MULTIPART]

/** Which Ajv instance checks each part: the document's own, for Novu's (docs/behaviour.md §10). */
export interface Kinds {
  params: ValidatorKind
  body: ValidatorKind
  response: ValidatorKind
}

type Parameter = OpenAPIV3_1.ParameterObject

/**
 * Every operation of a dereferenced document, keyed by operationId. `name` names the document
 * in the validators' keys.
 */
export function compileOperations(
  doc: OpenAPIV3_1.Document,
  name: string,
  source: ValidatorSource,
  { bodies, wording, kinds, errorRefs }: { bodies: BodyHandling; wording: Wording; kinds?: Kinds; errorRefs?: ErrorRefs },
): Map<string, Operation> {
  const { params: paramsKind, body: bodyKind, response: responseKind } = kinds ?? { params: 'params', body: bodies === 'exact' ? 'exactBody' : 'strippingBody', response: 'response' }
  const operations = new Map<string, Operation>()
  const shared = new Map<string, () => ValidateFunction>()
  for (const [pathTemplate, item] of Object.entries(doc.paths ?? {})) {
    for (const method of METHODS) {
      const op = item?.[method]
      if (!op) continue
      if (!op.operationId) throw new Error(`${method.toUpperCase()} ${pathTemplate} has no operationId`)
      const parameters = [...(item.parameters ?? []), ...(op.parameters ?? [])] as Parameter[]
      const content = (op.requestBody as OpenAPIV3_1.RequestBodyObject | undefined)?.content ?? {}
      const body = BODY_TYPES.map((type) => content[type]?.schema).find((schema) => schema !== undefined)
      const key = `${name}:${op.operationId}`
      const params = once(() => source.validator(paramsKind, `${key}:params`, () => paramsSchema(parameters)))
      // A stripping validator checks a closed copy: the document's open bodies would strip nothing.
      const bodySchema = () => (bodies === 'exact' || kinds ? (body as JsonSchema) : closedCopy(body as JsonSchema))
      const bodyValidator = body === undefined ? undefined : once(() => source.validator(bodyKind, `${key}:body`, bodySchema))
      const split = bodies === 'exact' && body !== undefined ? once(() => splitBodyOf(body as JsonSchema, 'exactBody', `${key}:body`, source)) : () => undefined
      const responses = lazyResponses(op, key, { source, kind: responseKind, shared, name, errorRefs, dereferenced: kinds === undefined })
      const success = successStatusOf(op)
      const answer = contentOf(op, success)?.schema as JsonSchema | undefined
      // Only the control plane answers in slices (docs/behaviour.md §6); Novu's own answers are small.
      const splitAnswer = answer === undefined || kinds !== undefined ? () => undefined : once(() => splitBodyOf(answer, 'response', `${key}:response:${success}`, source))
      operations.set(op.operationId, {
        operationId: op.operationId,
        method: method.toUpperCase(),
        pathTemplate,
        routePath: pathTemplate.replace(/\{([^}]+)\}/g, ':$1'),
        successStatus: success,
        pageAnswer: (op as Record<string, unknown>)[PAGE_ANSWER] === true,
        requiresAuth: (op.security ?? doc.security ?? []).length > 0,
        takesBody: body !== undefined,
        multipart: content[JSON_TYPE] === undefined && content[MULTIPART] !== undefined,
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

/** Accepts no body, and only that. */
const NO_CONTENT = Object.assign((body: unknown) => {
  NO_CONTENT.errors = body === undefined ? null : [{ instancePath: '', schemaPath: '#', keyword: 'noContent', params: {}, message: 'must have no body' }]
  return body === undefined
}, { errors: null as unknown }) as unknown as ValidateFunction

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

interface ResponseSource {
  source: ValidatorSource
  kind: ValidatorKind
  /** The validators of answers that are one named schema (Novu's errors), compiled once for every operation, by the schema's ref. */
  shared: Map<string, () => ValidateFunction>
  /** The document's name, in those validators' keys. */
  name: string
  /** The error bodies' schemas, for an error status an operation leaves undocumented. */
  errorRefs?: ErrorRefs | undefined
  /** The document is dereferenced: its answers' large subschemas are compiled as definitions of their own. */
  dereferenced: boolean
}

/** Refs to the schemas of an error body and of a 422's. */
export interface ErrorRefs {
  error: string
  validation: string
}

function lazyResponses(op: OpenAPIV3_1.OperationObject, key: string, { source, kind, shared, name, errorRefs, dereferenced }: ResponseSource): ResponseValidators & { warm(): void } {
  const compilers = new Map<number, () => ValidateFunction>()
  const compiler = (validatorKey: string, schema: JsonSchema) => once(() => source.validator(kind, validatorKey, () => (dereferenced ? withOwnDefinitions(schema) : schema)))
  const sharedRef = (ref: string) => {
    const refKey = `${name}:ref:${ref}`
    return shared.get(refKey) ?? shared.set(refKey, compiler(refKey, { $ref: ref })).get(refKey)!
  }
  for (const [code, response] of Object.entries(op.responses ?? {})) {
    const content = (response as OpenAPIV3_1.ResponseObject).content
    const schema = content?.[JSON_TYPE]?.schema as JsonSchema | undefined
    const ref = schema && Object.keys(schema).length === 1 && typeof schema.$ref === 'string' ? schema.$ref : undefined
    if (ref !== undefined) compilers.set(Number(code), sharedRef(ref))
    else if (schema) compilers.set(Number(code), compiler(`${key}:response:${code}`, schema))
    // A success documented without a body (a 204): its answer is no body at all.
    else if (Number(code) < 300 && Object.keys(content ?? {}).length === 0) compilers.set(Number(code), () => NO_CONTENT)
  }
  // An error the mock answers that the operation leaves undocumented (some of Novu's document no 422) is still checked, as an error body.
  const undocumented = (status: number) => (errorRefs && status >= 400 ? sharedRef(status === 422 ? errorRefs.validation : errorRefs.error) : undefined)
  // Novu documents some errors as another body (a 429 as a string, trigger's 400 as its payload
  // check's): the mock's own refusals of that status are ErrorDtos (docs/behaviour.md §1.2), so either passes.
  const errors = new Map<number, ValidateFunction>()
  const errorOf = (status: number, documented: ValidateFunction, error: ValidateFunction) => errors.get(status) ?? errors.set(status, eitherOf(documented, error)).get(status)!
  return {
    get: (status) => {
      const documented = compilers.get(status)?.()
      const error = undocumented(status)?.()
      return documented && error ? errorOf(status, documented, error) : (documented ?? error)
    },
    has: (status) => compilers.has(status),
    warm: () => compilers.forEach((compile) => compile()),
  }
}

/** Passes what either passes; its errors are the first's (the documented body's). */
function eitherOf(first: ValidateFunction, second: ValidateFunction): ValidateFunction {
  const validate = ((data: unknown) => {
    const passed = first(data) || second(data)
    validate.errors = passed ? null : first.errors
    return passed
  }) as ValidateFunction
  return Object.assign(validate, { schema: first.schema, schemaEnv: first.schemaEnv })
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
