import type { ValidateFunction } from 'ajv/dist/2020.js'

export type ParamLocation = 'path' | 'query' | 'header'

/** One operation of a document, with every validator it needs compiled once. */
export interface Operation {
  readonly operationId: string
  readonly method: string
  /** The document's template, e.g. `/v2/subscribers/{subscriberId}`. */
  readonly pathTemplate: string
  /** The same path in express's syntax, e.g. `/v2/subscribers/:subscriberId`. */
  readonly routePath: string
  readonly successStatus: number
  readonly requiresAuth: boolean
  readonly takesBody: boolean
  /** Validates `{path, query, header}`; coerces and fills defaults in place. */
  readonly validateParams: ValidateFunction
  /** Validates the body; strips unknown fields in place. */
  readonly validateBody: ValidateFunction | undefined
  readonly responseValidators: ReadonlyMap<number, ValidateFunction>
}

export interface RequestParams {
  path: Record<string, unknown>
  query: Record<string, unknown>
  header: Record<string, unknown>
}
