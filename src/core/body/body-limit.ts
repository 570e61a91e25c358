/** body-parser's default limit, which the live service keeps on most of its routes (docs/behaviour.md §1.3). */
const API_BODY_LIMIT = 100 * 1024
/** body-parser's `26mb`: the live service's limit under the routes that take workflows, layouts and triggers. */
const LARGE_API_BODY_LIMIT = 26 * 2 ** 20
/** The control plane takes a whole tenant's state in one body. */
const ADMIN_BODY_LIMIT = 64 * 2 ** 20

/** Where the live service mounts its `26mb` parser (`app.use(path, …)`: the path and everything under it, in any case). */
const LARGE_BODY_PREFIXES = ['/v1/events', '/v1/notification-templates', '/v1/workflows', '/v2/workflows', '/v1/layouts', '/v1/bridge']

/**
 * The most bytes a body sent to `path` (below the mock's base, without its query) may hold, once
 * its `Content-Encoding` is undone: what both doors enforce while reading, whatever route the path
 * turns out to be, since the body is read before routing (docs/behaviour.md §1.3).
 */
export function bodyLimitOf(path: string): number {
  if (isAdminPath(path)) return ADMIN_BODY_LIMIT
  const lower = path.toLowerCase()
  return LARGE_BODY_PREFIXES.some((prefix) => isUnder(lower, prefix)) ? LARGE_API_BODY_LIMIT : API_BODY_LIMIT
}

const isUnder = (path: string, prefix: string) => path.startsWith(prefix) && (path.length === prefix.length || path[prefix.length] === '/')

/** Whether `path` is the control plane's, which no proxy forwards (in any case: express routes it so). */
export const isAdminPath = (path: string) => isUnder(path.toLowerCase(), '/__admin')
