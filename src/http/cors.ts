import type { IncomingMessage, ServerResponse } from 'node:http'
import { parse } from 'node:url'
import cors from 'cors'
import { Lru } from '../lib/lru.ts'

/** Origins a browser page may call from: any (`*`), these, or none (CORS off). */
export type CorsOrigins = '*' | 'none' | readonly string[]

/** Headers the answers carry that a browser client may read. */
const EXPOSED_HEADERS = ['Idempotency-Key', 'Idempotency-Replay', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'RateLimit-Policy', 'Retry-After']
/** Seconds a browser may reuse a preflight: short, so a restart with other origins shows soon. */
const PREFLIGHT_MAX_AGE = 600

/** Headers an answer carries, by name. */
export type CorsHeaders = Readonly<Record<string, string>>

export interface CorsPolicy {
  /** Answers a preflight (`OPTIONS` with an `Origin`) 204; it never reaches routing or authentication. */
  preflight(req: IncomingMessage, res: ServerResponse): void
  /** The headers any other answer to a page at `origin` carries, as the `cors` middleware sets them. */
  headersFor(origin: string): CorsHeaders
}

/** Distinct origins whose headers are kept: a browser frontend calls from one or two. */
const MAX_REMEMBERED_ORIGINS = 64

/**
 * The `cors` middleware, on node's own request and response. An origin not in the list gets no
 * `Access-Control-Allow-Origin`, so the browser keeps the answer from the page. The caller asks
 * only for requests that carry an `Origin`, so requests from anything but a browser pay nothing.
 * Undefined when CORS is off.
 *
 * Outside a preflight the middleware's headers depend on the origin alone, so they are asked of it
 * once per origin and handed to the answer's own `writeHead`: set on the response one by one, as
 * the middleware does, they cost a browser's every call about a tenth of its time (each
 * `setHeader` validates, and node then merges every other header of the answer the same way).
 */
export function corsPolicy(origins: CorsOrigins): CorsPolicy | undefined {
  if (origins === 'none') return undefined
  const middleware = cors({
    origin: origins === '*' ? '*' : [...origins],
    methods: 'GET,HEAD,PUT,PATCH,POST,DELETE',
    // No list: a preflight's Access-Control-Request-Headers are echoed, so a frontend's own
    // headers (tracing, request ids) pass as the API's do.
    exposedHeaders: EXPOSED_HEADERS.join(','),
    maxAge: PREFLIGHT_MAX_AGE,
    optionsSuccessStatus: 204,
  })
  // An origin is a scheme, a host and a port: a longer one is no browser's, and is not kept.
  const remembered = new Lru<CorsHeaders>(MAX_REMEMBERED_ORIGINS, { longestKey: 256 })
  return {
    preflight: (req, res) => middleware(req, res, () => {}),
    headersFor: (origin) => remembered.remember(origin, () => headersOf(middleware, origin)),
  }
}

type Middleware = (req: IncomingMessage, res: ServerResponse, next: () => void) => void

/** What the middleware sets for a call (not a preflight) from `origin`, caught on a stand-in response. */
function headersOf(middleware: Middleware, origin: string): CorsHeaders {
  const headers: Record<string, string> = {}
  const request = { method: 'GET', headers: { origin } }
  const response = {
    getHeader: (name: string) => headers[name],
    setHeader: (name: string, value: string) => void (headers[name] = value),
  }
  // The middleware reads only these members of each (Vary always by that spelling); it answers synchronously with static options.
  middleware(request as unknown as IncomingMessage, response as unknown as ServerResponse, () => {})
  return headers
}

/**
 * Whether a request from another site's page may be answered with CORS headers: not under
 * `/__admin`, whose state and keys no other site may read (docs/behaviour.md §6). Spelled as
 * express matches routes, whatever the case, on the path express routes: that of an
 * absolute-form target (`OPTIONS http://127.0.0.1:4010/__admin/state`) too.
 */
export const corsAllowed = (url: string): boolean => !targetPaths(url).some((path) => /^\/__admin(?:\/|$)/i.test(path))

/**
 * The paths of a request target: an origin-form target's own; of an absolute-form one, the path
 * as the router reads it (node's `url.parse`, as express's parseurl) and as the URL parser
 * resolves it (`..` applied), so that neither reading can see `/__admin` where this rule did not.
 */
function targetPaths(url: string): string[] {
  if (url.startsWith('/')) return [url.split('?', 1)[0]!]
  let resolved = ''
  try {
    resolved = new URL(url).pathname
  } catch {
    // Not a URL (`*`, a malformed target): the router's reading alone.
  }
  return [parse(url).pathname ?? '', resolved]
}

/** `*`, `none`, or comma-separated origins, each reduced to scheme://host[:port]; undefined if one is not a URL. */
export function parseCorsOrigins(text: string): CorsOrigins | undefined {
  const items = text.split(',').map((item) => item.trim()).filter(Boolean)
  if (items.length === 1 && (items[0] === '*' || items[0] === 'none')) return items[0]
  if (items.length === 0 || !items.every((item) => URL.canParse(item) && new URL(item).origin !== 'null')) return undefined
  return [...new Set(items.map((item) => new URL(item).origin))]
}
