import express from 'express'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { ApiError } from '../answer/api-error.ts'
import { payloadTooLarge, unsupportedMedia } from '../core/read-body.ts'

type ReadRequest = IncomingMessage & { body?: unknown }
type Reader = (req: ReadRequest, res: ServerResponse, next: (error?: unknown) => void) => void

const readers = new Map<number, Reader>()

/**
 * A body's bytes as they stream in, inflated from their `Content-Encoding`, refused (413) as soon
 * as they pass `limit`: what only the node door can do, since it reads from the socket.
 */
export async function bodyBytes(req: ReadRequest, res: ServerResponse, limit: number): Promise<Uint8Array> {
  // Read already, as bytes, by a parser in front of the mock (an app it is mounted in).
  if (req.readableEnded && Buffer.isBuffer(req.body)) return req.body
  const read = readerFor(limit)
  await new Promise<void>((resolve, reject) => read(req, res, (error?: unknown) => (error ? reject(asApiError(error)) : resolve())))
  return Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0)
}

/** A body a parser in front of the mock read already into a value (JSON, a form): that value stands. */
export function bodyReadBefore(req: ReadRequest): { value: unknown } | undefined {
  return req.readableEnded && req.body !== undefined && !Buffer.isBuffer(req.body) ? { value: req.body } : undefined
}

function readerFor(limit: number): Reader {
  let reader = readers.get(limit)
  if (!reader) {
    reader = express.raw({ limit, inflate: true, type: () => true })
    readers.set(limit, reader)
  }
  return reader
}

function asApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error
  const type = (error as { type?: string }).type
  if (type === 'entity.too.large') return payloadTooLarge()
  if (type === 'encoding.unsupported' || type === 'charset.unsupported') return unsupportedMedia()
  const message = error instanceof Error ? error.message : 'Malformed request body'
  return new ApiError(400, 'MALFORMED_BODY', `Malformed request body: ${message}`)
}
