import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http'
import { isIPv4 } from 'node:net'
import { ApiError } from '../answer/api-error.ts'
import { errorBody } from '../answer/error-body.ts'
import { sendJson } from './respond.ts'

/** `--allowed-hosts`: `all` (no check), or names beside the loopback ones; a leading dot takes the subdomains too. */
export type AllowedHosts = 'all' | readonly string[]

const LOOPBACK_BINDS: ReadonlySet<string> = new Set(['localhost', '::1', '[::1]'])

export const isLoopbackBind = (host: string): boolean => LOOPBACK_BINDS.has(host) || (isIPv4(host) && host.startsWith('127.'))

/**
 * The names the server answers to (docs/behaviour.md §1.7), or undefined when any host may call:
 * on a loopback bind the loopback names and `allowed`; elsewhere only when `allowed` is given.
 */
export function hostPolicy(bindHost: string, allowed: AllowedHosts | undefined): ((host: string) => boolean) | undefined {
  if (allowed === 'all' || (allowed === undefined && !isLoopbackBind(bindHost))) return undefined
  const names = (allowed ?? []).map((name) => hostnameOf(name))
  return (host) => {
    const name = hostnameOf(host)
    return isLoopbackName(name) || names.some((given) => name === given || (given.startsWith('.') && (name.endsWith(given) || name === given.slice(1))))
  }
}

/**
 * The listener behind a Host check, the first step of every request: a page whose DNS name was
 * rebound to 127.0.0.1 sends its own name as Host, and gets a 403 before any route, key or state
 * is reached. No Host at all (HTTP/1.0) is no browser's request, so it passes.
 */
export function checkingHost(listener: RequestListener, allows: ((host: string) => boolean) | undefined): RequestListener {
  if (allows === undefined) return listener
  return (req: IncomingMessage, res: ServerResponse) => {
    const host = req.headers.host
    if (host === undefined || allows(host)) return listener(req, res)
    // The request's body is never read: the connection closes after the answer.
    res.shouldKeepAlive = false
    const error = new ApiError(403, 'HOST_NOT_ALLOWED', `Host "${host}" is not allowed: on a loopback address the mock answers only localhost and loopback addresses; start it with --allowed-hosts ${hostnameOf(host)} (NOVU_MOCK_ALLOWED_HOSTS) to allow it`)
    sendJson(res, { status: 403, body: errorBody(error, req.url ?? '/', new Date()) })
  }
}

/** The name without its port, lower-cased, without a trailing dot; an IPv6 literal keeps its brackets. */
function hostnameOf(host: string): string {
  const lower = host.trim().toLowerCase()
  const name = lower.startsWith('[') ? lower.slice(0, lower.indexOf(']') + 1) : lower.replace(/:\d*$/, '')
  return name.endsWith('.') ? name.slice(0, -1) : name
}

function isLoopbackName(name: string): boolean {
  return name === 'localhost' || name.endsWith('.localhost') || name === '[::1]' || (isIPv4(name) && name.startsWith('127.'))
}
