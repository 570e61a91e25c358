import qs from 'qs'
import typeis from 'type-is'
import { ApiError } from '../../answer/api-error.ts'

/** A body read as the live service reads it (docs/behaviour.md §1.3). */
export interface ParsedBody {
  value: unknown
  /** Set when the body was not read for its content type: the type as sent (`none` without one), for the journal. */
  ignoredType?: string
  /** Set when the body was read as a form: a client that meant JSON (`curl -d` sends this type) learns why its fields are missing. */
  readAsForm?: true
}

/** The live service's parser for forms is body-parser's `urlencoded({ extended: true })`: these are its limits. */
const PARAMETER_LIMIT = 1000
const DEPTH = 32

/** The last type asked about and its answer: a client sends the same `Content-Type` call after call. */
let lastType: string | undefined
let lastIsJson = false

export function isJson(contentType: string | undefined): boolean {
  if (contentType === undefined) return false
  if (contentType !== lastType) {
    lastIsJson = typeis.is(contentType, ['application/json']) !== false
    lastType = contentType
  }
  return lastIsJson
}
const isForm = (contentType: string | undefined): boolean =>
  contentType !== undefined && typeis.is(contentType, ['application/x-www-form-urlencoded']) !== false

/**
 * A body that is not JSON (JSON keeps its own parser, with its own errors): a form is parsed as
 * the live service parses it (nested keys, `a[]=`); any other type reads as an empty body, which
 * the document's required fields then refuse in a 422, as the live service's validation does.
 */
export function parseBody(contentType: string | undefined, bytes: Uint8Array): ParsedBody {
  if (!isForm(contentType)) return { value: {}, ignoredType: contentType || 'none' }
  const latin1 = /;\s*charset="?iso-8859-1"?/i.test(contentType ?? '')
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString(latin1 ? 'latin1' : 'utf8')
  if (text.length === 0) return { value: {}, readAsForm: true }
  const parameters = text.split('&').length
  if (parameters > PARAMETER_LIMIT) throw new ApiError(413, 'PAYLOAD_TOO_LARGE', 'too many parameters')
  try {
    return {
      value: qs.parse(text, {
        allowPrototypes: true,
        arrayLimit: Math.max(100, parameters),
        depth: DEPTH,
        charset: latin1 ? 'iso-8859-1' : 'utf-8',
        parameterLimit: PARAMETER_LIMIT,
        strictDepth: true,
      }),
      readAsForm: true,
    }
  } catch (error) {
    if (error instanceof RangeError) throw new ApiError(400, 'MALFORMED_BODY', 'The input exceeded the depth')
    throw error
  }
}
