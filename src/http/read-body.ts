import express from 'express'
import type { IncomingMessage, ServerResponse } from 'node:http'
import typeis from 'type-is'
import { ApiError } from './api-error.ts'

type Parser = (req: IncomingMessage & { body?: unknown }, res: ServerResponse, next: (error?: unknown) => void) => void

const parsers = new Map<string, Parser>()

/**
 * Reads a JSON body with the service's answers: 415 for another media type, 413 past `limit`,
 * 400 naming the JSON problem. No body at all reads as `undefined`.
 */
export async function readJsonBody(req: IncomingMessage & { body?: unknown }, res: ServerResponse, limit: string): Promise<unknown> {
  const length = Number(req.headers['content-length'] ?? 0)
  if (req.headers['transfer-encoding'] === undefined && !(length > 0)) return undefined
  if (!typeis(req, ['application/json'])) throw new ApiError(415, 'UNSUPPORTED_MEDIA_TYPE', 'Unsupported Media Type')
  const parse = parserFor(limit)
  await new Promise<void>((resolve, reject) => parse(req, res, (error?: unknown) => (error ? reject(error) : resolve())))
  return req.body
}

function parserFor(limit: string): Parser {
  let parser = parsers.get(limit)
  if (!parser) {
    parser = wrapErrors(express.json({ limit, strict: true }))
    parsers.set(limit, parser)
  }
  return parser
}

function wrapErrors(parser: Parser): Parser {
  return (req, res, next) =>
    parser(req, res, (error?: unknown) => {
      if (!error) return next()
      next(asApiError(error))
    })
}

function asApiError(error: unknown): ApiError {
  const type = (error as { type?: string }).type
  if (type === 'entity.too.large') return new ApiError(413, 'PAYLOAD_TOO_LARGE', 'Payload Too Large')
  if (type === 'encoding.unsupported' || type === 'charset.unsupported') {
    return new ApiError(415, 'UNSUPPORTED_MEDIA_TYPE', 'Unsupported Media Type')
  }
  const message = error instanceof Error ? error.message : 'Malformed request body'
  return new ApiError(400, 'MALFORMED_BODY', type === 'entity.parse.failed' ? message : `Malformed request body: ${message}`)
}
