import express from 'express'
import type { IncomingMessage, ServerResponse } from 'node:http'
import typeis from 'type-is'
import { ApiError } from '../answer/api-error.ts'
import { jsonNestsDeeperThan, MAX_JSON_DEPTH, valueNestsDeeperThan } from '../lib/json-depth.ts'

/** The body as sent (inflated, not yet decoded), kept by the parser for the request's fingerprint. */
const RAW = Symbol('raw body')

type ParsedRequest = IncomingMessage & { body?: unknown; [RAW]?: Buffer }
type Parser = (req: ParsedRequest, res: ServerResponse, next: (error?: unknown) => void) => void

export interface JsonBody {
  value: unknown
  /** The bytes as sent: what an idempotency key's fingerprint compares, with no need to serialize `value` again. */
  raw: Buffer
}

const parsers = new Map<string, Parser>()

/**
 * Reads a JSON body with the service's answers: 415 for another media type, 413 past `limit`,
 * 400 naming the JSON problem. No body at all reads as `undefined`.
 */
export async function readJsonBody(req: ParsedRequest, res: ServerResponse, limit: string): Promise<JsonBody | undefined> {
  const length = Number(req.headers['content-length'] ?? 0)
  if (req.headers['transfer-encoding'] === undefined && !(length > 0)) return undefined
  if (!typeis(req, ['application/json'])) throw new ApiError(415, 'UNSUPPORTED_MEDIA_TYPE', 'Unsupported Media Type')
  const parse = parserFor(limit)
  await new Promise<void>((resolve, reject) => parse(req, res, (error?: unknown) => (error ? reject(error) : resolve())))
  // Absent when a parser in front of the mock (an app it is mounted in) read the body first.
  const raw = req[RAW]
  if (raw === undefined && valueNestsDeeperThan(req.body)) throw tooDeep()
  return { value: req.body, raw: raw ?? Buffer.from(JSON.stringify(req.body)) }
}

/** Called by the parser with the bytes before it parses them: a body nested too deep goes no further. */
const keepRaw = (req: ParsedRequest, _res: ServerResponse, raw: Buffer): void => {
  if (jsonNestsDeeperThan(raw)) throw tooDeep()
  req[RAW] = raw
}

export const tooDeep = () => new ApiError(400, 'BODY_TOO_DEEP', `JSON body nested deeper than ${MAX_JSON_DEPTH} levels (arrays and objects): the mock reads at most ${MAX_JSON_DEPTH}`)

function parserFor(limit: string): Parser {
  let parser = parsers.get(limit)
  if (!parser) {
    parser = wrapErrors(express.json({ limit, strict: true, verify: keepRaw }))
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
  if (error instanceof ApiError) return error
  const type = (error as { type?: string }).type
  if (type === 'entity.too.large') return new ApiError(413, 'PAYLOAD_TOO_LARGE', 'Payload Too Large')
  if (type === 'encoding.unsupported' || type === 'charset.unsupported') {
    return new ApiError(415, 'UNSUPPORTED_MEDIA_TYPE', 'Unsupported Media Type')
  }
  const message = error instanceof Error ? error.message : 'Malformed request body'
  return new ApiError(400, 'MALFORMED_BODY', type === 'entity.parse.failed' ? message : `Malformed request body: ${message}`)
}
