import { ApiError, tryAgainLater } from '../answer/api-error.ts'
import { errorBody } from '../answer/error-body.ts'
import { createServer, STATUS_CODES, type RequestListener, type Server } from 'node:http'
import type { Duplex } from 'node:stream'
import { endAll } from './turn-end.ts'

/** How long a client may take to send its headers, and its whole request. */
export const HEADERS_TIMEOUT_MS = 10_000
export const REQUEST_TIMEOUT_MS = 30_000
/** Open connections at once; one more is told to come back (503) rather than dropped. */
export const MAX_CONNECTIONS = 1000

export interface ClientLimits {
  maxConnections?: number | undefined
  requestTimeoutMs?: number | undefined
}

/**
 * An HTTP server that holds slow clients to the time-outs (checked every second, not Node's
 * default 30 s), caps connections, and answers what Node itself refuses (a malformed request,
 * headers too large, a client too slow) with the documented ErrorDto body, not a bare status line.
 */
export function createGuardedServer(listener: RequestListener, limits: ClientLimits = {}): Server {
  const requestTimeout = limits.requestTimeoutMs ?? REQUEST_TIMEOUT_MS
  const server = createServer({
    requestTimeout,
    headersTimeout: Math.min(HEADERS_TIMEOUT_MS, requestTimeout),
    connectionsCheckingInterval: Math.min(1000, requestTimeout),
  }, listener)
  capConnections(server, limits.maxConnections ?? MAX_CONNECTIONS)
  // Before node's own 'end' handler, which closes the connection: a half-closed client still gets the answers of its turn.
  server.on('connection', (socket) => socket.prependListener('end', endAll))
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    if (!socket.writable || error.code === 'ECONNRESET') return void socket.destroy()
    const status = statusOf(error.code)
    // No request line was read: no path to name.
    const body = JSON.stringify(errorBody(new ApiError(status, 'CLIENT_ERROR', messageOf(status)), '', new Date()))
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    )
  })
  return server
}

function statusOf(code: string | undefined): number {
  if (code === 'HPE_HEADER_OVERFLOW') return 431
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return 408
  return 400
}

function messageOf(status: number): string {
  if (status === 431) return 'Request Header Fields Too Large'
  if (status === 408) return 'Request Timeout'
  return 'Bad Request: the request could not be parsed'
}

function capConnections(server: Server, maxConnections: number): void {
  let open = 0
  server.on('connection', (socket) => {
    open++
    socket.once('close', () => open--)
    if (open <= maxConnections) return
    const body = JSON.stringify(errorBody(tryAgainLater('TOO_MANY_CONNECTIONS', 1), '', new Date()))
    socket.end(`HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json; charset=utf-8\r\nRetry-After: 1\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`)
  })
}
