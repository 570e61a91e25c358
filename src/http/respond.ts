import type { ServerResponse } from 'node:http'
import type { Answer } from '../answer/answer.ts'
import { appendHeaders, JSON_CONTENT_TYPE, type HeaderList } from '../core/sent-answer.ts'

export function sendJson(res: ServerResponse, answer: Answer): void {
  const head: HeaderList = []
  appendHeaders(head, answer.headers)
  sendJsonText(res, answer.status, head, JSON.stringify(answer.body))
}

/**
 * Sends `text`, a JSON body already serialized, after the headers in `head` and its own. One list
 * rather than an object: node takes each pair as it comes, where an object is copied, then walked
 * key by key with a lookup each (docs/decisions.md, 2026-11-24). Sent as a string, so node writes
 * the head and the body in one packet.
 */
export function sendJsonText(res: ServerResponse, status: number, head: HeaderList, text: string): void {
  head.push('Content-Type', JSON_CONTENT_TYPE, 'Content-Length', Buffer.byteLength(text))
  res.writeHead(status, head)
  res.end(text)
}
