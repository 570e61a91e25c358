import type { IncomingMessage } from 'node:http'
import { generalProblem } from '../answer/api-error.ts'
import type { Operation, RequestParams } from '../contract/operation.ts'
import { parseQuery } from '../lib/parse-query.ts'

/** A request as node or express hands it over; express's mount point, when any, is in originalUrl. */
export type RouteRequest = IncomingMessage & { originalUrl?: string }

/** What an answer to a request needs to know of it. */
export interface RequestLine {
  method: string
  /** As sent: path and query. */
  url: string
  /** The path alone. */
  path: string
}

const WRITE_METHODS: ReadonlySet<string> = new Set(['POST', 'PATCH', 'PUT', 'DELETE'])

export function requestLineOf(req: RouteRequest): RequestLine {
  const url = req.originalUrl ?? req.url ?? '/'
  const query = url.indexOf('?')
  return { method: req.method ?? 'GET', url, path: query === -1 ? url : url.slice(0, query) }
}

/** An empty key is no key, as the live service tests it by truthiness (docs/behaviour.md §4). */
export function idempotencyKeyOf(req: IncomingMessage): string | undefined {
  if (!WRITE_METHODS.has(req.method ?? '')) return undefined
  const key = req.headers['idempotency-key']
  return typeof key === 'string' && key !== '' ? key : undefined
}

/** More query parameters than any operation takes many times over: refused before parsing them. */
const MAX_QUERY_PARAMETERS = 100

export function paramsOf(operation: Operation, req: IncomingMessage, line: RequestLine, params: Record<string, string>): RequestParams {
  const query = parseQuery(line.url)
  const count = Object.values(query).reduce((sum, value) => sum + (Array.isArray(value) ? value.length : 1), 0)
  if (count > MAX_QUERY_PARAMETERS) {
    throw generalProblem([`at most ${MAX_QUERY_PARAMETERS} query parameters, got ${count}`])
  }
  return {
    // Copied: validation coerces in place, and express's params are its own.
    path: { ...params },
    query,
    header: declaredHeaders(operation, req.headers),
  }
}

/**
 * The headers the document declares for the operation (the rest are not its to check), copied:
 * validation coerces in place. Their names are the document's, never the client's, so a plain
 * object is safe here (and several times faster to fill and read than a prototype-free one).
 */
function declaredHeaders(operation: Operation, headers: IncomingMessage['headers']): Record<string, unknown> {
  const declared: Record<string, unknown> = {}
  for (const name of operation.headerNames) if (headers[name] !== undefined) declared[name] = headers[name]
  return declared
}
