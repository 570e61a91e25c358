import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http'
import { BlockList, isIPv4, isIPv6 } from 'node:net'
import { ApiError } from '../answer/api-error.ts'
import { errorBody } from '../answer/error-body.ts'
import { sendJson } from './respond.ts'
import { Lru } from '../lib/lru.ts'

/** Host headers whose verdict is kept, and the longest kept (a name of 253 and a port). */
const HOSTS_KEPT = 256
const LONGEST_HOST = 260

/** `--allowed-hosts`: `all` (no check), or names beside the loopback ones; a leading dot takes the subdomains too. */
export type AllowedHosts = 'all' | readonly string[]

/** Loopback addresses: 127.0.0.0/8 and ::1, an IPv4-mapped IPv6 address (`::ffff:127.0.0.1`) matching as its IPv4 one. */
const LOOPBACK = new BlockList()
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4')
LOOPBACK.addAddress('::1', 'ipv6')

/** `localhost`, or any spelling of a loopback address (`127.1`, `0:0:0:0:0:0:0:1`, `::ffff:127.0.0.1`, `[::1]`). */
export const isLoopbackBind = (host: string): boolean => {
  const name = canonicalHost(host)
  return name === 'localhost' || (name !== undefined && isLoopbackAddress(name))
}

/** A DNS label: letters, digits, `-` inside, and `_` (Docker's service names have it). */
const HOST_LABEL = /^(?!-)[\w-]{1,63}(?<!-)$/

/**
 * An entry `--allowed-hosts` takes: a host name (`mock.test`), a `.suffix` (`.example.com`, its
 * subdomains too), an IPv4 address or a bracketed IPv6 one, as a Host header names them: no port.
 */
export function isAllowedHostEntry(entry: string): boolean {
  if (entry.startsWith('[') && entry.endsWith(']')) return isIPv6(entry.slice(1, -1))
  const name = entry.replace(/^\./, '').replace(/\.$/, '')
  return name.length > 0 && name.length <= 253 && name.split('.').every((label) => HOST_LABEL.test(label))
}

/**
 * The names the server answers to (docs/behaviour.md §1.7), or undefined when any host may call:
 * on a loopback bind the loopback names and `allowed`; elsewhere only when `allowed` is given.
 */
export function hostPolicy(bindHost: string, allowed: AllowedHosts | undefined): ((host: string) => boolean) | undefined {
  if (allowed === 'all' || (allowed === undefined && !isLoopbackBind(bindHost))) return undefined
  const names = (allowed ?? []).map((name) => hostnameOf(name))
  const allows = (host: string) => {
    const name = hostnameOf(host)
    return isLoopbackName(name) || names.some((given) => name === given || (given.startsWith('.') && (name.endsWith(given) || name === given.slice(1))))
  }
  // Parsing an address is the dearest step of a call that does little else: each Host's verdict is kept.
  const verdicts = new Lru<boolean>(HOSTS_KEPT, { longestKey: LONGEST_HOST })
  return (host) => verdicts.remember(host, allows)
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

function isLoopbackName(host: string): boolean {
  const name = canonicalHost(host)
  return name !== undefined && (name === 'localhost' || name.endsWith('.localhost') || isLoopbackAddress(name))
}

/** Whether a host, as the URL parser reads it, is a loopback address. */
const isLoopbackAddress = (name: string): boolean =>
  name.startsWith('[') ? LOOPBACK.check(name.slice(1, -1), 'ipv6') : isIPv4(name) && LOOPBACK.check(name, 'ipv4')

/** What may spell a host name or an address literal: with anything else (`@`, `/`, `%`) the URL parser would read another part of a URL. */
const HOST_CHARACTERS = /^[\w.:[\]-]+$/

/**
 * The host as the WHATWG URL parser reads it, which parses every spelling of an address
 * (`127.1` and `0x7f.1` are `127.0.0.1`, `0:0:0:0:0:0:0:1` is `[::1]`, `::ffff:127.0.0.1` is
 * `[::ffff:7f00:1]`) and lower-cases a name; undefined when it is no host.
 */
function canonicalHost(host: string): string | undefined {
  if (!HOST_CHARACTERS.test(host)) return undefined
  try {
    const name = new URL(`http://${isIPv6(host) ? `[${host}]` : host}/`).hostname
    return name.endsWith('.') ? name.slice(0, -1) : name
  } catch {
    return undefined
  }
}
