import iconv from 'iconv-lite'
import { ApiError } from '../../answer/api-error.ts'
import type { CallRequest, SentBody } from '../call-request.ts'
import { jsonNestsDeeperThan, MAX_JSON_DEPTH, valueNestsDeeperThan } from '../../lib/json/json-depth.ts'
import { jsonInSteps } from '../../lib/json/json-in-steps.ts'
import { inSlices } from '../../lib/slices.ts'
import { isJson, parseBody } from './parse-body.ts'
import { isMultipart, multipartFields } from './multipart-body.ts'

export type { SentBody } from '../call-request.ts'

/**
 * What the journal and the log line say of how a body was read: the live service's answer alone
 * gives no hint. A form is named only on a refused call (JSON sent by `curl -d` without a JSON
 * type reads as one form key, whose 422 lists every field as missing); a form that worked needs no note.
 */
export function bodyNote(read: Pick<SentBody, 'ignoredType' | 'readAsForm'>, status: number): string | undefined {
  if (read.ignoredType !== undefined) return `body ignored for its content type (${read.ignoredType})`
  if (read.readAsForm && status >= 400) return 'body read as a form (application/x-www-form-urlencoded) because no JSON content type was sent; send Content-Type: application/json for JSON'
  return undefined
}

/** A body larger than its path takes (docs/behaviour.md §1.3). */
export const payloadTooLarge = () => new ApiError(413, 'PAYLOAD_TOO_LARGE', 'Payload Too Large')
export const unsupportedMedia = () => new ApiError(415, 'UNSUPPORTED_MEDIA_TYPE', 'Unsupported Media Type')
/** body-parser's words for a `Content-Encoding` it cannot undo. */
export const unsupportedEncoding = (encoding: string) => new ApiError(415, 'UNSUPPORTED_ENCODING', `unsupported content encoding "${encoding}"`)
/** body-parser's words for a JSON body in a charset it does not read, the charset upper-cased as it writes it. */
export const unsupportedCharset = (charset: string) => new ApiError(415, 'UNSUPPORTED_CHARSET', `unsupported charset "${charset.toUpperCase()}"`)
/** A JSON body nested deeper than any request of the five operations (docs/behaviour.md §1.2), refused before anything walks it. */
export const tooDeep = () => new ApiError(400, 'BODY_TOO_DEEP', `JSON body nested deeper than ${MAX_JSON_DEPTH} levels (arrays and objects): the mock reads at most ${MAX_JSON_DEPTH}`)

const NOTHING_READ_FIRST: Promise<undefined> = Promise.resolve(undefined)

/**
 * A JSON body, read before anything routes or authenticates its request, as the live service's
 * parser runs before its router and its guards (docs/behaviour.md §1.3): a malformed, too deep,
 * oversize or undecodable one is refused whatever its path and headers. Read once per request,
 * by whichever asks first (the door, for a path no operation answers; else the operation); a body
 * of another type, or none, is `undefined` here and read by `readBody` in its turn.
 */
export function readJsonFirst(request: CallRequest): Promise<SentBody | undefined> {
  if (!request.hasBody || !isJson(request.header('content-type'))) return NOTHING_READ_FIRST
  return (request.jsonRead ??= readBody(request))
}

/**
 * Reads a body with the service's answers, in its order (docs/behaviour.md §1.3). JSON: 415 for a
 * charset body-parser does not read (not `utf-*`, or none iconv-lite decodes), before a byte is
 * read; then the door's 413; then 400 for a nesting deeper than the limit, measured on the decoded
 * text, or naming the JSON problem. A form is parsed as the live service parses it, and any other
 * type reads as an empty body (its bytes still read, and bounded by the door), but a `multipart`
 * operation's form reads as its fields; `jsonOnly` (the
 * control plane) answers 415 for another type instead, before a byte is read. No body at all reads
 * as `undefined`.
 */
export async function readBody(request: CallRequest, jsonOnly = false, multipart = false): Promise<SentBody | undefined> {
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
  if (!json) {
    const bytes = await request.bytes()
    if (multipart && isMultipart(contentType)) return { value: await multipartFields(contentType!, bytes), raw: bytes }
    return { ...parseBody(contentType, bytes), raw: bytes }
  }
  const charset = charsetOf(contentType)
  if (!charset.startsWith('utf-') || !iconv.encodingExists(charset)) throw unsupportedCharset(charset)
  const raw = await request.bytes()
  // Read as UTF-8 from here on, where no byte of a longer character is a bracket, a quote or a backslash.
  const bytes = charset === 'utf-8' ? raw : Buffer.from(iconv.decode(asBuffer(raw), charset), 'utf8')
  if (bytes.length >= SLICED_JSON_BYTES) return parsedInSlices(bytes, raw)
  // In one pass over the bytes, before JSON.parse: a body thousands deep would overflow every later step's stack.
  if (jsonNestsDeeperThan(bytes)) throw tooDeep()
  return { value: parseJsonText(bytes), raw }
}

/**
 * From this size on, a JSON body is read in slices (docs/behaviour.md §6): a whole state of tens
 * of MB would stall every other call for its JSON.parse. Below it, one piece costs a millisecond.
 */
export const SLICED_JSON_BYTES = 64 * 1024

/** A large body (UTF-8 `bytes`, sent as `raw`) read between turns of the event loop, to the same value, or the same answer, as in one piece. */
async function parsedInSlices(bytes: Uint8Array, raw: Uint8Array): Promise<SentBody> {
  // A clock look per step: a step is tens of KB, and the collector's marking of a large heap may ride on any of them.
  const read = await inSlices(jsonInSteps(bytes), 1)
  if (read.kind === 'too-deep') throw tooDeep()
  if (read.kind === 'value') return { value: read.value, raw }
  // Not an object, or malformed: JSON.parse reads it whole, for its own message (its depth is measured already).
  return { value: parseJsonText(bytes), raw }
}

const CHARSET = /;\s*charset\s*=\s*"?([^";\s]+)/i
const charsetOf = (contentType: string | undefined) => (contentType && CHARSET.exec(contentType)?.[1]?.toLowerCase()) ?? 'utf-8'

/**
 * The JSON of UTF-8 `bytes`, read as body-parser's JSON parser reads it (strict: an object or an
 * array; an empty body is `{}`; a byte-order mark dropped), with its messages, so both doors
 * answer a malformed body alike.
 */
function parseJsonText(bytes: Uint8Array): unknown {
  const text = UTF8.decode(bytes)
  if (text.length === 0) return {}
  const first = /^[\x20\x09\x0a\x0d]*([^\x20\x09\x0a\x0d]|$)/.exec(text)?.[1]
  if (first !== '{' && first !== '[') throw malformed(strictViolation(text, first ?? ''))
  try {
    return JSON.parse(text)
  } catch (error) {
    throw malformed((error as Error).message)
  }
}

/** Decodes without keeping state between calls (no `stream`), so one serves every call; drops a byte-order mark, as iconv-lite does. */
const UTF8 = new TextDecoder('utf-8')

/** The same bytes as a Buffer, not copied: iconv-lite decodes Buffers. */
const asBuffer = (bytes: Uint8Array): Buffer => (Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength))

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
