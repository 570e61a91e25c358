import type { ServerResponse } from 'node:http'
import type { Answer } from '../answer/answer.ts'
import { appendHeaders, JSON_CONTENT_TYPE, type HeaderList } from '../core/answers/sent-answer.ts'
import { endAtTurnEnd } from './turn-end.ts'

export function sendJson(res: ServerResponse, answer: Answer): void {
  const head: HeaderList = []
  appendHeaders(head, answer.headers)
  sendJsonText(res, answer.status, head, JSON.stringify(answer.body))
}

/**
 * Sends `text`, a JSON body already serialized, after the headers in `head` and its own. One list
 * rather than an object: node takes each pair as it comes, where an object is copied, then walked
 * key by key with a lookup each (docs/decisions.md, 2026-11-24). Sent as a string, so node writes
 * the head and the body in one packet, at the end of the turn (http/turn-end.ts).
 */
export function sendJsonText(res: ServerResponse, status: number, head: HeaderList, text: string): void {
  head.push('Content-Type', JSON_CONTENT_TYPE, 'Content-Length', Buffer.byteLength(text))
  res.writeHead(status, head)
  endAtTurnEnd(res, text)
}

/**
 * Sends a large JSON body (docs/behaviour.md §6) as its chunks come, each written once the socket
 * has taken the ones before (node frames them with `Transfer-Encoding: chunked`): a reader that
 * takes it slowly holds one chunk of it in memory, not the whole text. A client gone before the
 * end stops the chunks being made.
 */
export async function sendJsonChunks(res: ServerResponse, status: number, head: HeaderList, chunks: AsyncIterable<string>): Promise<void> {
  head.push('Content-Type', JSON_CONTENT_TYPE)
  res.writeHead(status, head)
  for await (const chunk of chunks) {
    if (res.destroyed) return
    if (!res.write(chunk)) await drainedOrClosed(res)
  }
  res.end()
}

const drainedOrClosed = (res: ServerResponse): Promise<void> =>
  new Promise((resolve) => {
    const done = () => {
      res.off('drain', done)
      res.off('close', done)
      resolve()
    }
    res.on('drain', done)
    res.on('close', done)
  })
