import type { IncomingMessage } from 'node:http'
import type { Duplex } from 'node:stream'
import * as zlib from 'node:zlib'
import { ApiError } from '../answer/api-error.ts'
import { payloadTooLarge, unsupportedEncoding } from '../core/body/body-reading.ts'
import { GrowingBytes } from '../lib/growing-bytes.ts'

type ReadRequest = IncomingMessage & { body?: unknown }

/** The `Content-Encoding`s a body may come in, each with what undoes it. */
const INFLATERS: Readonly<Record<string, () => zlib.Inflate | zlib.Gunzip | zlib.BrotliDecompress>> = {
  gzip: zlib.createGunzip,
  'x-gzip': zlib.createGunzip,
  deflate: zlib.createInflate,
  br: zlib.createBrotliDecompress,
}

/**
 * A body's bytes as they stream in, inflated from their `Content-Encoding`, refused (413) as soon
 * as they pass `limit`: what only the node door can do, since it reads from the socket. A refused
 * body is still read to its end before the refusal is answered, so the client, still sending, reads it.
 */
export function bodyBytes(req: ReadRequest, limit: number, afterParse = false): Promise<Uint8Array> {
  // Read already, as bytes, by a parser in front of the mock (an app it is mounted in).
  if (req.readableEnded) return Promise.resolve(Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0))
  const encoding = (req.headers['content-encoding'] ?? 'identity').trim().toLowerCase()
  const declared = encoding === 'identity' && req.headers['content-length'] !== undefined ? Number(req.headers['content-length']) : undefined
  if (declared !== undefined && declared > limit) return drainedThenRefused(req, payloadTooLarge())
  // Every byte it declared arrived before it was asked for (a small body, most often): taken as it lies, no stream events.
  if (declared !== undefined && req.readableLength > 0 && req.readableLength === declared) return Promise.resolve(req.read() as Buffer)
  // Asked for as its headers are parsed, a small body arrives with them but is parsed just after: looked at again then, it too is taken as it lies.
  if (!afterParse && declared !== undefined && declared > 0 && req.readableLength === 0) return Promise.resolve().then(() => bodyBytes(req, limit, true))
  if (encoding === 'identity') return collected(req, undefined, limit, declared)
  const inflater = INFLATERS[encoding]
  if (inflater === undefined) return drainedThenRefused(req, unsupportedEncoding(encoding))
  return collected(req, req.pipe(inflater()), limit, undefined)
}

/** A body a parser in front of the mock read already into a value (JSON, a form): that value stands. */
export function bodyReadBefore(req: ReadRequest): { value: unknown } | undefined {
  return req.readableEnded && req.body !== undefined && !Buffer.isBuffer(req.body) ? { value: req.body } : undefined
}

/** The bytes of `req`, or of the stream inflating it. */
function collected(req: ReadRequest, inflating: Duplex | undefined, limit: number, declared: number | undefined): Promise<Uint8Array> {
  const source = inflating ?? req
  return new Promise((resolve, reject) => {
    const bytes = new GrowingBytes()
    let settled = false
    const refuse = (error: ApiError) => {
      if (settled) return
      settled = true
      if (inflating !== undefined) {
        req.unpipe(inflating)
        inflating.destroy()
      }
      void drainedThenRefused(req, error).catch(reject)
    }
    source.on('data', (chunk: Buffer) => {
      if (settled) return
      bytes.push(chunk)
      if (bytes.length > limit) refuse(payloadTooLarge())
    })
    source.on('end', () => {
      if (settled) return
      if (declared !== undefined && bytes.length !== declared) return refuse(malformed('request size did not match content length'))
      settled = true
      Promise.resolve(bytes.joined()).then(resolve, reject)
    })
    source.on('error', (error: Error) => refuse(malformed(error.message)))
    // The client went before the body's end: no answer will reach it, but the call must end.
    req.on('close', () => {
      if (!req.complete) refuse(malformed('request aborted'))
    })
  })
}

/** Reads what is left of the request, then refuses it. */
function drainedThenRefused(req: ReadRequest, error: ApiError): Promise<never> {
  return new Promise((_resolve, reject) => {
    if (req.readableEnded || req.destroyed) return reject(error)
    req.on('end', () => reject(error))
    req.on('close', () => reject(error))
    req.resume()
  })
}

const malformed = (message: string) => new ApiError(400, 'MALFORMED_BODY', `Malformed request body: ${message}`)
