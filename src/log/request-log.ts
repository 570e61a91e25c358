import { createHash } from 'node:crypto'
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Logger } from './logger.ts'
import { Lru } from '../lib/lru.ts'

/** A property of the response rather than a WeakMap entry, which costs every request about 1 µs more. */
const OPERATION_ID = Symbol('operationId')
const NOTE = Symbol('note')
type NotedResponse = ServerResponse & { [OPERATION_ID]?: string; [NOTE]?: string }

/** Names the operation a response answers, for its log line. */
export function noteOperation(res: ServerResponse, operationId: string): void {
  ;(res as NotedResponse)[OPERATION_ID] = operationId
}

/** What the log line adds about the call (how its body was read), when the answer alone does not explain it. */
export function noteCall(res: ServerResponse, note: string): void {
  ;(res as NotedResponse)[NOTE] = note
}

/** How a tenant is named in the log: a short hash of its `Authorization` header, never the key. */
export const tenantHash = (auth: string): string => createHash('sha256').update(auth).digest('hex').slice(0, 8)

/** A tenant's log name from its key, as a call's line names it (`Authorization: ApiKey <key>`). */
export const hashOfKey = (key: string): string => tenantHash(`ApiKey ${key}`)

/**
 * One line per request, written when its answer is sent. The tenant appears as a short hash of
 * its key, never the key itself.
 */
export function requestLog(logger: Logger): (req: IncomingMessage, res: ServerResponse) => void {
  // Bounded like every cache here, in count and in the length of the header kept.
  const tenantHashes = new Lru<string>(10_000, { longestKey: 256 })
  const tenantOf = (auth: string) => tenantHashes.remember(auth, () => tenantHash(auth))
  return (req, res) => {
    if (!logger.enabled('info')) return
    const started = performance.now()
    const url = req.url ?? '/'
    // 'finish' comes once: `once` would only add a wrapper per request.
    res.on('finish', () => {
      const auth = req.headers.authorization
      logger.request({
        method: req.method,
        path: url.split('?')[0] ?? url,
        operationId: (res as NotedResponse)[OPERATION_ID],
        status: res.statusCode,
        ms: Math.round((performance.now() - started) * 1000) / 1000,
        tenant: auth ? tenantOf(auth) : undefined,
        note: (res as NotedResponse)[NOTE],
      })
    })
  }
}
