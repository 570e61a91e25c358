import { ApiError } from '../answer/api-error.ts'
import type { CallRequest } from './call-request.ts'
import { jsonNestsDeeperThan, MAX_JSON_DEPTH, valueNestsDeeperThan } from '../lib/json-depth.ts'
import { jsonInSteps } from '../lib/json-in-steps.ts'
import { inSlices } from '../lib/slices.ts'
import { isJson, parseBody } from './parse-body.ts'

export interface SentBody {
  value: unknown
  /** The bytes as sent (decoded from their encoding): what an idempotency key's fingerprint compares. */
  raw: Uint8Array
  /** Set when the body was ignored for its content type (docs/behaviour.md §1.3): the type, for the journal. */
  ignoredType?: string
  /** Set when the body was read as a form (docs/behaviour.md §1.3), which the journal and the log line say. */
  readAsForm?: true
}

/** What the journal and the log line say of how a body was read: the live service's answer alone gives no hint. */
export function bodyNote(sent: SentBody | undefined): string | undefined {
  if (sent?.ignoredType !== undefined) return `body ignored for its content type (${sent.ignoredType})`
  if (sent?.readAsForm) return 'body read as a form (application/x-www-form-urlencoded) because no JSON content type was sent; send Content-Type: application/json for JSON'
  return undefined
}

/** A body larger than a door takes (docs/behaviour.md §1.3). */
export const payloadTooLarge = () => new ApiError(413, 'PAYLOAD_TOO_LARGE', 'Payload Too Large')
export const unsupportedMedia = () => new ApiError(415, 'UNSUPPORTED_MEDIA_TYPE', 'Unsupported Media Type')
/** A JSON body nested deeper than any request of the five operations (docs/behaviour.md §1.2), refused before anything walks it. */
export const tooDeep = () => new ApiError(400, 'BODY_TOO_DEEP', `JSON body nested deeper than ${MAX_JSON_DEPTH} levels (arrays and objects): the mock reads at most ${MAX_JSON_DEPTH}`)

/**
 * Reads a body with the service's answers, in its order (docs/behaviour.md §1.3). JSON: 415 for a
 * charset other than UTF-*, before a byte is read; then the door's 413; then 400 naming the JSON
 * problem. A form is parsed as the live service parses it, and any other type reads as an empty
 * body (its bytes still read, and bounded by the door); `jsonOnly` (the control plane) answers 415
 * for another type instead, before a byte is read. No body at all reads as `undefined`.
 */
export async function readBody(request: CallRequest, jsonOnly = false): Promise<SentBody | undefined> {
  if (!request.hasBody) return undefined
  const contentType = request.header('content-type')
  const json = isJson(contentType)
  if (!json && jsonOnly) throw unsupportedMedia()
  // Read already by a parser in front of the mock (an app it is mounted in): its value stands.
  const before = request.readBefore?.()
  if (before !== undefined) {
    if (valueNestsDeeperThan(before.value)) throw tooDeep()
    return { value: before.value, raw: new TextEncoder().encode(JSON.stringify(before.value ?? null)) }
  }
  if (json && !charsetOf(contentType).startsWith('utf-')) throw unsupportedMedia()
  const bytes = await request.bytes()
  if (json && bytes.length >= SLICED_JSON_BYTES && isUtf8(charsetOf(contentType))) return parsedInSlices(contentType, bytes)
  // In one pass over the bytes, before JSON.parse: a body thousands deep would overflow every later step's stack.
  if (json && jsonNestsDeeperThan(bytes)) throw tooDeep()
  return json ? parseJsonBody(contentType, bytes) : { ...parseBody(contentType, bytes), raw: bytes }
}

/**
 * From this size on, a JSON body is read in slices (docs/behaviour.md §6): a whole state of tens
 * of MB would stall every other call for its JSON.parse. Below it, one piece costs a millisecond.
 */
export const SLICED_JSON_BYTES = 64 * 1024

/** A large body read between turns of the event loop, to the same value, or the same answer, as in one piece. */
async function parsedInSlices(contentType: string | undefined, bytes: Uint8Array): Promise<SentBody> {
  // A clock look per step: a step is tens of KB, and the collector's marking of a large heap may ride on any of them.
  const read = await inSlices(jsonInSteps(bytes), 1)
  if (read.kind === 'too-deep') throw tooDeep()
  if (read.kind === 'value') return { value: read.value, raw: bytes }
  // Not an object, or malformed: JSON.parse reads it whole, for its own message (its depth is measured already).
  return parseJsonBody(contentType, bytes)
}

const isUtf8 = (charset: string) => {
  try {
    return new TextDecoder(charset).encoding === 'utf-8'
  } catch {
    return false
  }
}

const CHARSET = /;\s*charset\s*=\s*"?([^";\s]+)/i
const charsetOf = (contentType: string | undefined) => (contentType && CHARSET.exec(contentType)?.[1]?.toLowerCase()) ?? 'utf-8'

/**
 * The JSON of `bytes`, read as express's JSON parser reads it (strict: an object or an array; an
 * empty body is `{}`), with its messages, so both doors answer a malformed body alike.
 */
export function parseJsonBody(contentType: string | undefined, bytes: Uint8Array): SentBody {
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

/** Decodes without keeping state between calls (no `stream`), so one serves every call. */
const UTF8 = new TextDecoder('utf-8')

function decoded(charset: string, bytes: Uint8Array): string {
  try {
    return (charset === 'utf-8' ? UTF8 : new TextDecoder(charset)).decode(bytes)
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
