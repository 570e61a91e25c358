import type { ValidateFunction } from 'ajv/dist/2020.js'

export type ParamLocation = 'path' | 'query' | 'header'

export type Wording = 'service' | 'fields'

/** Validators by status code. */
export interface ResponseValidators {
  get(status: number): ValidateFunction | undefined
  has(status: number): boolean
}

/**
 * One operation of a document. Its validators are compiled once, on first use (or by `warm`),
 * so that start-up does not wait for schemas no request has needed yet.
 */
export interface Operation {
  readonly operationId: string
  readonly method: string
  /** The document's template, e.g. `/v2/subscribers/{subscriberId}`. */
  readonly pathTemplate: string
  /** The same path in express's syntax, e.g. `/v2/subscribers/:subscriberId`. */
  readonly routePath: string
  readonly successStatus: number
  /** Its success is a page that has its own `data` (Novu's lists): never wrapped in another (docs/behaviour.md §1.1). */
  readonly pageAnswer: boolean
  readonly requiresAuth: boolean
  readonly takesBody: boolean
  /** Its body is `multipart/form-data` (Novu's uploads): a form's fields are read, its files named, not kept. */
  readonly multipart: boolean
  /** How a 422 words its problems: as the live service does, or by field in Ajv's words (the control plane). */
  readonly wording: Wording
  /** The header parameters the document declares, lower-cased as node reports them. */
  readonly headerNames: readonly string[]
  /** Validates `{path, query, header}`; coerces and fills defaults in place. */
  readonly validateParams: ValidateFunction
  /** Validates the body (stripping unknown fields in place, where the contract says so). */
  readonly validateBody: ValidateFunction | undefined
  /** The body's records, each checked on its own (docs/behaviour.md §6): only for a document checked exactly. */
  readonly splitBody: SplitBody | undefined
  /** The success answer's records, each checked on its own (a whole state, the journal), as `splitBody`. */
  readonly splitResponse: SplitBody | undefined
  readonly responseValidators: ResponseValidators
  /** The document's example answer for a status: a named one, or the schema's own. */
  example(status: number, name?: string): unknown
  /** The names of the document's examples of a status, for a 422 that lists what `Prefer: example=` accepts. */
  exampleNames(status: number): string[]
  /** Compiles every validator now. */
  warm(): void
}

/**
 * A body whose schema is an object of arrays of records (the admin state), checked in slices: the
 * object with those arrays emptied by the body's own validator, then each record by a validator
 * of its array's `items`, both from the same document.
 */
export interface SplitBody {
  /** The schema's properties, in its order: the order of the whole validator's problems. */
  readonly order: readonly string[]
  /** Validators of the records of each array property that has no rule of its own beyond `items`. */
  readonly items: ReadonlyMap<string, ValidateFunction>
}

export interface RequestParams {
  path: Record<string, unknown>
  query: Record<string, unknown>
  header: Record<string, unknown>
}
