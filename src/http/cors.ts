import type { IncomingMessage, ServerResponse } from 'node:http'
import cors from 'cors'

/** Origins a browser page may call from: any (`*`), these, or none (CORS off). */
export type CorsOrigins = '*' | 'none' | readonly string[]

/** Headers a browser client sends: the API's, the SDK's, and the control plane's token. */
const ALLOWED_HEADERS = ['Authorization', 'Content-Type', 'Accept', 'Idempotency-Key', 'Prefer', 'X-Admin-Token']
/** Headers the answers carry that a browser client may read. */
const EXPOSED_HEADERS = ['Idempotency-Key', 'Idempotency-Replay', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'RateLimit-Policy', 'Retry-After']
/** Seconds a browser may reuse a preflight: short, so a restart with other origins shows soon. */
const PREFLIGHT_MAX_AGE = 600

export type CorsHandler = (req: IncomingMessage, res: ServerResponse, next: () => void) => void

/**
 * The `cors` middleware on node's own request and response. A preflight (`OPTIONS` with an
 * `Origin`) is answered 204 here and never reaches routing or authentication; any other request
 * gets its headers and goes on through `next`. An origin not in the list gets no
 * `Access-Control-Allow-Origin`, so the browser keeps the answer from the page. The caller calls
 * it only for requests that carry an `Origin`, so requests from anything but a browser pay
 * nothing. Undefined when CORS is off.
 */
export function corsHandler(origins: CorsOrigins): CorsHandler | undefined {
  if (origins === 'none') return undefined
  return cors({
    origin: origins === '*' ? '*' : [...origins],
    methods: ['GET', 'HEAD', 'PUT', 'PATCH', 'POST', 'DELETE'],
    allowedHeaders: ALLOWED_HEADERS,
    exposedHeaders: EXPOSED_HEADERS,
    maxAge: PREFLIGHT_MAX_AGE,
    optionsSuccessStatus: 204,
  })
}

/** `*`, `none`, or comma-separated origins, each reduced to scheme://host[:port]; undefined if one is not a URL. */
export function parseCorsOrigins(text: string): CorsOrigins | undefined {
  const items = text.split(',').map((item) => item.trim()).filter(Boolean)
  if (items.length === 1 && (items[0] === '*' || items[0] === 'none')) return items[0]
  if (items.length === 0 || !items.every((item) => URL.canParse(item) && new URL(item).origin !== 'null')) return undefined
  return [...new Set(items.map((item) => new URL(item).origin))]
}
