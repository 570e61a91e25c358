import typeis from 'type-is'
import { ApiError } from '../answer/api-error.ts'
import type { CallRequest } from './call-request.ts'

export interface JsonBody {
  value: unknown
  /** The bytes as sent (decoded from their encoding): what an idempotency key's fingerprint compares. */
  raw: Uint8Array
}

/** A body larger than a door takes (docs/behaviour.md §1.3). */
export const payloadTooLarge = () => new ApiError(413, 'PAYLOAD_TOO_LARGE', 'Payload Too Large')
export const unsupportedMedia = () => new ApiError(415, 'UNSUPPORTED_MEDIA_TYPE', 'Unsupported Media Type')

/**
 * Reads a JSON body with the service's answers, in its order: 415 for another media type or a
 * charset other than UTF-*, before a byte is read; then the door's 413; then 400 naming the JSON
 * problem. No body at all reads as `undefined`.
 */
export async function readJsonBody(request: CallRequest): Promise<JsonBody | undefined> {
  if (!request.hasBody) return undefined
  const contentType = request.header('content-type')
  if (!acceptsJson(contentType)) throw unsupportedMedia()
  return parseJsonBody(contentType, await request.bytes())
}

function acceptsJson(contentType: string | undefined): boolean {
  return contentType !== undefined && typeis.is(contentType, ['application/json']) !== false && charsetOf(contentType).startsWith('utf-')
}

const CHARSET = /;\s*charset\s*=\s*"?([^";\s]+)/i
const charsetOf = (contentType: string | undefined) => (contentType && CHARSET.exec(contentType)?.[1]?.toLowerCase()) ?? 'utf-8'

/**
 * The JSON of `bytes`, read as express's JSON parser reads it (strict: an object or an array; an
 * empty body is `{}`), with its messages, so both doors answer a malformed body alike.
 */
export function parseJsonBody(contentType: string | undefined, bytes: Uint8Array): JsonBody {
  const text = decoded(charsetOf(contentType), bytes)
  if (text.length === 0) return { value: {}, raw: bytes }
  const first = /^[\x20\x09\x0a\x0d]*([^\x20\x09\x0a\x0d]|$)/.exec(text)?.[1]
  if (first !== '{' && first !== '[') throw malformed(strictViolation(text, first ?? ''))
  try {
    return { value: JSON.parse(text), raw: bytes }
  } catch (error) {
    throw malformed((error as Error).message)
  }
}

function decoded(charset: string, bytes: Uint8Array): string {
  try {
    return new TextDecoder(charset).decode(bytes)
  } catch {
    // A UTF-* label the platform's decoder does not know (utf-7).
    throw unsupportedMedia()
  }
}

const malformed = (message: string) => new ApiError(400, 'MALFORMED_BODY', message)

/** JSON.parse's own message for the first character that is not `{` or `[`, as body-parser words it. */
function strictViolation(text: string, first: string): string {
  const at = text.indexOf(first)
  const partial = at === -1 ? '' : text.slice(0, at) + '#'.repeat(text.length - at)
  try {
    JSON.parse(partial)
    return 'strict violation'
  } catch (error) {
    return (error as Error).message.replace(/#+/g, (placeholder) => text.slice(at, at + placeholder.length))
  }
}

/** The API's limit (docs/behaviour.md §1.3: 1 MiB), whichever door reads the body. */
export const API_BODY_LIMIT = 2 ** 20
