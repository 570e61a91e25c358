import express from 'express'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { ApiError } from '../answer/api-error.ts'
import { isJson, parseBody } from './parse-body.ts'
import { jsonNestsDeeperThan, MAX_JSON_DEPTH, valueNestsDeeperThan } from '../lib/json-depth.ts'

/** The body as sent (inflated, not yet decoded), kept by the parser for the request's fingerprint. */
const RAW = Symbol('raw body')

type ParsedRequest = IncomingMessage & { body?: unknown; [RAW]?: Buffer }
type Parser = (req: ParsedRequest, res: ServerResponse, next: (error?: unknown) => void) => void

export interface SentBody {
  value: unknown
  /** The bytes as sent: what an idempotency key's fingerprint compares, with no need to serialize `value` again. */
  raw: Buffer
  /** Set when the body was ignored for its content type (docs/behaviour.md §1.3): the type, for the journal. */
  ignoredType?: string
}

const parsers = new Map<string, Parser>()

/**
 * Reads a body with the service's answers: JSON (400 naming the JSON problem), a form, or any
 * other type as an empty body (docs/behaviour.md §1.3); `jsonOnly` (the admin API) answers 415 for
 * another type instead. 413 past `limit`. No body at all reads as `undefined`.
 */
export async function readBody(req: ParsedRequest, res: ServerResponse, limit: string, jsonOnly = false): Promise<SentBody | undefined> {
  const length = Number(req.headers['content-length'] ?? 0)
  if (req.headers['transfer-encoding'] === undefined && !(length > 0)) return undefined
  const contentType = req.headers['content-type']
  const json = isJson(contentType)
  if (!json && jsonOnly) throw new ApiError(415, 'UNSUPPORTED_MEDIA_TYPE', 'Unsupported Media Type')
  const parse = parserFor(json ? 'json' : 'bytes', limit)
  await new Promise<void>((resolve, reject) => parse(req, res, (error?: unknown) => (error ? reject(error) : resolve())))
  const raw = req[RAW]
  // Absent when a parser in front of the mock (an app it is mounted in) read the body first: its value stands.
  if (raw === undefined) {
    if (valueNestsDeeperThan(req.body)) throw tooDeep()
    return { value: req.body, raw: Buffer.from(JSON.stringify(req.body ?? null)) }
  }
  return json ? { value: req.body, raw } : { ...parseBody(contentType, raw), raw }
}

/** Called by the parser with the bytes before it parses them: a body nested too deep goes no further. */
const keepRaw = (req: ParsedRequest, _res: ServerResponse, raw: Buffer): void => {
  if (isJson(req.headers['content-type']) && jsonNestsDeeperThan(raw)) throw tooDeep()
  req[RAW] = raw
}

export const tooDeep = () => new ApiError(400, 'BODY_TOO_DEEP', `JSON body nested deeper than ${MAX_JSON_DEPTH} levels (arrays and objects): the mock reads at most ${MAX_JSON_DEPTH}`)

/** JSON keeps body-parser's strict parser and its errors; any other type is read as bytes, inflated and bounded, for parseBody. */
function parserFor(kind: 'json' | 'bytes', limit: string): Parser {
  let parser = parsers.get(`${kind} ${limit}`)
  if (!parser) {
    const options = { limit, verify: keepRaw }
    parser = wrapErrors(kind === 'json' ? express.json({ ...options, strict: true }) : express.raw({ ...options, type: () => true }))
    parsers.set(`${kind} ${limit}`, parser)
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
