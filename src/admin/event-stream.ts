import type { ServerResponse } from 'node:http'
import type { Operation } from '../contract/operation.ts'
import { parseQuery } from '../lib/parse-query.ts'
import { validateRequest } from '../contract/validation/validate-request.ts'
import { ApiError, tryAgainLater } from '../answer/api-error.ts'
import { apiKeyFrom } from '../core/authenticate.ts'
import { checkedErrorAnswer } from '../core/answers/error-answer.ts'
import type { RouteRequest } from '../http/operation-route.ts'
import { noteOperation } from '../log/request-log.ts'
import type { ResponseCheck } from '../core/answers/response-check.ts'
import { sendJson } from '../http/respond.ts'
import type { JournalPort } from '../journal/journal-port.ts'
import type { JournalEvent } from '../journal/request-journal.ts'

/** The one admin operation answered by a stream rather than a JSON handler. */
export const EVENT_STREAM_OPERATION = 'streamEvents'

/** A client this far behind (bytes not yet taken by the socket) is dropped, so memory stays bounded. */
const MAX_BUFFERED = 1024 * 1024

/** A comment line this often lets a client (or a proxy) see the stream is alive, and finds dead sockets. */
const HEARTBEAT_MS = 15_000

export interface EventStreamDependencies extends ResponseCheck {
  journal: JournalPort
  apiKeys: ReadonlySet<string> | undefined
  /** Ends every open stream, so a closing server need not wait for them. */
  shutdown?: AbortSignal
}

/**
 * `GET /__admin/events`: the caller's journal entries as server-sent events, from the moment the
 * stream opens. The tenant is the `Authorization` header's, as everywhere else; the entries are
 * the journal's own, so idempotency keys are already redacted and no header is ever in them.
 */
export function eventStream(operation: Operation, deps: EventStreamDependencies): (req: RouteRequest, res: ServerResponse) => void {
  const validatorOf = (status: number) => operation.responseValidators.get(status)
  return (req, res) => {
    noteOperation(res, operation.operationId)
    const refuse = (error: unknown) => {
      const line = { method: req.method ?? 'GET', url: req.originalUrl ?? req.url ?? '/' }
      sendJson(res, checkedErrorAnswer(error, line, validatorOf, deps))
    }
    let tenant: string
    let bodies: boolean
    try {
      tenant = apiKeyFrom(req.headers.authorization, deps.apiKeys)
      bodies = streamQuery(operation, req.originalUrl ?? req.url ?? '/').bodies
    } catch (error) {
      return refuse(error)
    }
    // Events of one turn of the event loop go out in one write: under load, one call's worth of
    // socket writes per call would cost the stream's reader more than the calls themselves.
    let pending: string[] = []
    const flush = () => {
      const events = pending.join('')
      pending = []
      // It reconnects and reads the past at GET /__admin/requests; 'close' below unsubscribes it.
      if (res.writableLength > MAX_BUFFERED) return void res.destroy()
      if (!res.destroyed && !res.writableEnded) res.write(events)
    }
    const unsubscribe = deps.journal.subscribe(
      tenant,
      (event) => {
        if (pending.push(requestEvent(event)) === 1) setImmediate(flush)
      },
      // `ready` once the journal hands over what any instance records (a shared one subscribes first).
      {
        bodies,
        ready: () => void (res.writableEnded || res.write('event: ready\ndata: {}\n\n')),
        // Given way to another key's stream: what was recorded before goes out first, then why it ends.
        closed: (reason) => {
          flush()
          res.end(`event: closed\ndata: ${JSON.stringify({ reason })}\n\n`)
        },
      },
    )
    if (!unsubscribe) return refuse(tooManyStreams())
    res.writeHead(200, { 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-store', 'X-Accel-Buffering': 'no' })
    const heartbeat = setInterval(() => void (res.writableEnded || res.write(': keep-alive\n\n')), HEARTBEAT_MS).unref()
    const end = () => res.end()
    deps.shutdown?.addEventListener('abort', end)
    // 'close' comes however the stream ends (client gone, server closing), so nothing outlives it.
    res.once('close', () => {
      clearInterval(heartbeat)
      unsubscribe()
      deps.shutdown?.removeEventListener('abort', end)
    })
  }
}

/** The stream's query as the document reads it (defaults filled, `bodies=false` coerced); a 422 otherwise. */
function streamQuery(operation: Operation, url: string): { bodies: boolean } {
  const input = validateRequest(operation, { path: {}, query: parseQuery(url), header: {} }, undefined)
  return input.query as { bodies: boolean }
}

/** JSON.stringify never emits a raw line break, so the entry is always one `data` line. */
function requestEvent({ id, json }: JournalEvent): string {
  return `id: ${id}\nevent: request\ndata: ${json}\n\n`
}

function tooManyStreams(): ApiError {
  return tryAgainLater('TOO_MANY_STREAMS', 5)
}
