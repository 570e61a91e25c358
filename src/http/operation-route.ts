import type { IncomingMessage, ServerResponse } from 'node:http'
import { bodyLimitOf } from '../core/body/body-limit.ts'
import type { CallRequest, SentBody } from '../core/call-request.ts'
import type { OperationEntry } from '../core/operation-table.ts'
import { appendHeaders, type CallOutcome, type HeaderList } from '../core/answers/sent-answer.ts'
import type { CorsHeaders } from './cors.ts'
import { bodyBytes, bodyReadBefore } from './body-bytes.ts'
import { noteCall, noteOperation } from '../log/request-log.ts'
import { sendJsonChunks, sendJsonText } from './respond.ts'

/** A request as node or express hands it over; express's mount point, when any, is in originalUrl. */
export type RouteRequest = IncomingMessage & { originalUrl?: string }

/**
 * The node door of one call of an operation, its path parameters already matched: the request as
 * the core reads it, and the core's outcome written to the socket. `cors` (CORS's headers) go on
 * every answer of the call, in its one `writeHead`.
 */
export async function answerOnNode(req: RouteRequest, res: ServerResponse, { operation, answer }: OperationEntry, params: Record<string, string>, cors?: CorsHeaders, request = nodeCallRequest(req)): Promise<void> {
  noteOperation(res, operation.operationId)
  return sendOutcome(req, res, await answer(request, params), cors)
}

/** The core's outcome written to the socket, or (a `drop`) the connection destroyed; awaited only when it goes out in chunks. */
export function sendOutcome(req: RouteRequest, res: ServerResponse, outcome: CallOutcome, cors?: CorsHeaders): void | Promise<void> {
  if (outcome === 'drop') return void req.socket.destroy()
  if (outcome.note !== undefined) noteCall(res, outcome.note)
  let head: HeaderList = outcome.head
  if (cors !== undefined) {
    head = []
    appendHeaders(head, cors)
    head.push(...outcome.head)
  }
  // The connection went before the answer could be written: nothing left to tell the client.
  if (outcome.chunks) return sendJsonChunks(res, outcome.status, head, outcome.chunks).catch(() => void res.destroy())
  try {
    sendJsonText(res, outcome.status, head, outcome.text)
  } catch {
    res.destroy()
  }
}

const callRequests = new WeakMap<IncomingMessage, CallRequest>()

/**
 * Node's request as the core reads it: its headers looked up in place, its body read only when
 * asked for, within the limit of its path (docs/behaviour.md §1.3), the path below the mock's mount
 * point. One per request, whoever asks (the door, then express's control plane): its JSON body,
 * once read before routing, is the one the operation reads.
 */
export function nodeCallRequest(req: RouteRequest): CallRequest {
  let call = callRequests.get(req)
  if (call === undefined) callRequests.set(req, (call = newNodeCallRequest(req)))
  return call
}

/** Node's request as the core reads it, for a request nothing else reads (the dispatcher's operations): none kept for it. */
export const newNodeCallRequest = (req: RouteRequest): CallRequest => {
  const url = req.url ?? '/'
  const query = url.indexOf('?')
  return new NodeCallRequest(req, bodyLimitOf(query === -1 ? url : url.slice(0, query)))
}

/** One object per call, its methods shared: closures made for every call were as many objects again. */
class NodeCallRequest implements CallRequest {
  jsonRead: Promise<SentBody | undefined> | undefined = undefined
  readonly method: string
  readonly url: string
  readonly rawHeaders: readonly string[]
  readonly hasBody: boolean

  constructor(
    private readonly req: RouteRequest,
    private readonly bodyLimit: number,
  ) {
    this.method = req.method ?? 'GET'
    this.url = req.originalUrl ?? req.url ?? '/'
    this.rawHeaders = req.rawHeaders
    this.hasBody = req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0
  }

  header(name: string): string | undefined {
    return headerText(this.req.headers[name])
  }

  bytes(): Promise<Uint8Array> {
    return bodyBytes(this.req, this.bodyLimit)
  }

  readBefore(): { value: unknown } | undefined {
    return bodyReadBefore(this.req)
  }
}

const headerText = (value: string | string[] | undefined): string | undefined => (Array.isArray(value) ? value.join(', ') : value)
