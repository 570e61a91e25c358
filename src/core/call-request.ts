import { generalProblem } from '../answer/api-error.ts'
import type { Operation, RequestParams } from '../contract/operation.ts'
import { parseQuery } from '../lib/parse-query.ts'

/**
 * A request as the core reads it, whichever door it came through: node's `IncomingMessage` and a
 * WHATWG `Request` each become one without copying their headers (docs/decisions.md, 2026-11-26).
 */
export interface CallRequest {
  method: string
  /** As sent: path and query. */
  url: string
  /** A header's value by its lower-case name; repeated ones joined by `, `. */
  header(name: string): string | undefined
  /** The headers as sent, name, value, …: what the journal keeps. */
  rawHeaders: readonly string[]
  /** Whether a body was sent at all: a request without one reads as no body, never as `{}`. */
  hasBody: boolean
  /**
   * The body's bytes, decoded from its `Content-Encoding`. The door enforces the size limit as it
   * reads (413), and refuses an encoding it cannot undo (415).
   */
  bytes(): Promise<Uint8Array>
  /**
   * A body some parser in front of the mock read already (an app the node door is mounted in):
   * its value stands, whatever its type. Absent, or `undefined`: the core reads `bytes()`.
   */
  readBefore?(): { value: unknown } | undefined
  /**
   * Its JSON body once read before routing (body/body-reading.ts's `readJsonFirst`), by whichever asked
   * first, the door or the operation: a slot on the request, not a map from requests to reads.
   */
  jsonRead?: Promise<SentBody | undefined>
}

export interface SentBody {
  value: unknown
  /** The bytes as sent (decoded from their encoding): what an idempotency key's fingerprint compares. */
  raw: Uint8Array
  /** Set when the body was ignored for its content type (docs/behaviour.md §1.3): the type, for the journal. */
  ignoredType?: string
  /** Set when the body was read as a form (docs/behaviour.md §1.3), which the journal and the log line say. */
  readAsForm?: true
}

/** What an answer to a request needs to know of it. */
export interface RequestLine {
  method: string
  /** As sent: path and query. */
  url: string
  /** The path alone. */
  path: string
}

const WRITE_METHODS: ReadonlySet<string> = new Set(['POST', 'PATCH', 'PUT', 'DELETE'])

export function requestLineOf({ method, url }: CallRequest): RequestLine {
  const query = url.indexOf('?')
  return { method, url, path: query === -1 ? url : url.slice(0, query) }
}

/** An empty key is no key, as the live service tests it by truthiness (docs/behaviour.md §4). */
export function idempotencyKeyOf(request: CallRequest): string | undefined {
  if (!WRITE_METHODS.has(request.method)) return undefined
  const key = request.header('idempotency-key')
  return key !== undefined && key !== '' ? key : undefined
}

/** More query parameters than any operation takes many times over: refused before parsing them. */
const MAX_QUERY_PARAMETERS = 100

export function paramsOf(operation: Operation, request: CallRequest, line: RequestLine, params: Record<string, string>): RequestParams {
  const query = parseQuery(line.url)
  const count = Object.values(query).reduce((sum, value) => sum + (Array.isArray(value) ? value.length : 1), 0)
  if (count > MAX_QUERY_PARAMETERS) {
    throw generalProblem([`at most ${MAX_QUERY_PARAMETERS} query parameters, got ${count}`])
  }
  return {
    // Copied: validation coerces in place, and express's params are its own.
    path: { ...params },
    query,
    header: declaredHeaders(operation, request),
  }
}

/**
 * The headers the document declares for the operation (the rest are not its to check), copied:
 * validation coerces in place. Their names are the document's, never the client's, so a plain
 * object is safe here (and several times faster to fill and read than a prototype-free one).
 */
function declaredHeaders(operation: Operation, request: CallRequest): Record<string, unknown> {
  const declared: Record<string, unknown> = {}
  for (const name of operation.headerNames) {
    const value = request.header(name)
    if (value !== undefined) declared[name] = value
  }
  return declared
}
