import express, { type Request, type RequestHandler, type Response } from 'express'
import type { Contract } from '../contract/load-contract.ts'
import type { Operation } from '../contract/operation.ts'
import { isoStamp } from '../lib/iso-time.ts'
import { jsonNestsDeeperThan, MAX_JSON_DEPTH } from '../lib/json/json-depth.ts'
import { parseQuery } from '../lib/parse-query.ts'
import { toFieldErrors } from '../contract/validation/field-errors.ts'
import type { Logger } from '../log/logger.ts'
import { noteOperation } from '../log/request-log.ts'
import type { JournalPort } from '../journal/journal-port.ts'
import { checkAnswer, type Violation } from '../verify/check-answer.ts'

export interface ProxyOptions {
  upstream: string
  /** Answer 502 (ErrorDto) instead of passing an off-contract exchange through. */
  strict: boolean
  api: Contract
  /** Novu's document: every other operation of the API is checked against it. */
  novu: Contract
  logger: Logger
  journal: JournalPort
  now: () => Date
}

type DirectedViolation = Violation & { direction: 'request' | 'response' }

const HOP_BY_HOP = new Set(['host', 'connection', 'content-length', 'keep-alive', 'transfer-encoding', 'upgrade'])
const readRaw = express.raw({ type: () => true, limit: '1mb' })

/**
 * Forwards a call of `operation` to the upstream unchanged, checks the request and the upstream's
 * answer against the document, logs and journals each violation, and passes the answer through.
 */
export function proxyRoute(operation: Operation, options: ProxyOptions): RequestHandler {
  return (req, res) =>
    readRaw(req, res, async (error?: unknown) => {
      const started = performance.now()
      if (error) return void res.status(413).end()
      const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0)
      const violations: DirectedViolation[] = requestViolations(operation, req, raw).map((v) => ({ ...v, direction: 'request' }))
      let upstream: globalThis.Response
      try {
        upstream = await forward(options.upstream, req, raw)
      } catch (cause) {
        return badGateway(res, req, options, `upstream did not answer: ${(cause as Error).message}`, [])
      }
      const text = await upstream.text()
      const contract = options.api.operations.get(operation.operationId) === operation ? options.api : options.novu
      const checked = checkAnswer(contract, operation.operationId, upstream.status, upstream.headers, text)
      violations.push(...checked.violations.map((v) => ({ ...v, direction: 'response' as const })))
      record(options, operation, req, raw, { status: upstream.status, body: checked.body ?? text, ms: performance.now() - started }, violations)
      if (violations.length > 0 && options.strict) return badGateway(res, req, options, 'Upstream exchange failed contract validation', violations)
      passThrough(res, upstream, text)
    })
}

function passThrough(res: Response, upstream: globalThis.Response, text: string): void {
  res.status(upstream.status)
  upstream.headers.forEach((value, name) => {
    // fetch has already decoded the body, so its encoding and length no longer apply.
    if (!HOP_BY_HOP.has(name) && name !== 'content-encoding') res.setHeader(name, value)
  })
  res.end(text)
}

/** Paths that are in no document go to the upstream unchecked (the admin API stays local). */
function forwardUnchecked(options: ProxyOptions): RequestHandler {
  return (req, res, next) => {
    if (req.path.startsWith('/__admin')) return next()
    readRaw(req, res, async () => {
      const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0)
      try {
        const upstream = await forward(options.upstream, req, raw)
        passThrough(res, upstream, await upstream.text())
      } catch (cause) {
        badGateway(res, req, options, `upstream did not answer: ${(cause as Error).message}`, [])
      }
    })
  }
}

function requestViolations(operation: Operation, req: Request, raw: Buffer): Violation[] {
  const params = { path: { ...req.params }, query: parseQuery(req.url), header: { ...req.headers } }
  const problems: Violation[] = []
  if (!operation.validateParams(params)) problems.push(...asViolations(toFieldErrors(operation.validateParams.errors ?? [], params, 1)))
  if (operation.validateBody && raw.length > 0) {
    const body = jsonOf(raw)
    if (body === undefined) problems.push({ message: `the request body is not JSON nested at most ${MAX_JSON_DEPTH} levels` })
    else if (!operation.validateBody(body.value)) problems.push(...asViolations(toFieldErrors(operation.validateBody.errors ?? [], body.value)))
  }
  return problems
}

/**
 * The body's JSON value, unless it is not JSON or nests deeper than the mock walks anything a
 * client sends (docs/behaviour.md §1.2): the validator and the journal would overflow the stack.
 */
function jsonOf(raw: Buffer): { value: unknown } | undefined {
  if (jsonNestsDeeperThan(raw)) return undefined
  try {
    return { value: JSON.parse(raw.toString('utf8')) }
  } catch {
    return undefined
  }
}

function asViolations(fields: Record<string, { messages: string[]; value?: unknown }>): Violation[] {
  return Object.entries(fields).flatMap(([field, { messages, value }]) => messages.map((message) => ({ message, instancePath: field, value })))
}

function forward(upstream: string, req: Request, raw: Buffer): Promise<globalThis.Response> {
  const headers = new Headers()
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined && !HOP_BY_HOP.has(name)) headers.set(name, Array.isArray(value) ? value.join(', ') : value)
  }
  const hasBody = raw.length > 0 && req.method !== 'GET' && req.method !== 'HEAD'
  return fetch(new URL(req.originalUrl, upstream), { method: req.method, headers, body: hasBody ? new Uint8Array(raw) : undefined, redirect: 'manual' })
}

interface UpstreamAnswer {
  status: number
  body: unknown
  ms: number
}

function record(options: ProxyOptions, operation: Operation, req: Request, raw: Buffer, answer: UpstreamAnswer, violations: DirectedViolation[]) {
  for (const v of violations) options.logger.warn('contract violation', { operationId: operation.operationId, ...v })
  const key = /^ApiKey\s+(\S.*)$/.exec(req.headers.authorization ?? '')?.[1]
  if (key === undefined) return
  const requestBody = raw.length === 0 ? undefined : (jsonOf(raw)?.value ?? raw.toString('utf8'))
  options.journal.record(key, {
    time: isoStamp(options.now().getTime()),
    operationId: operation.operationId,
    method: req.method,
    path: req.path,
    url: req.url,
    rawHeaders: req.rawHeaders,
    status: answer.status,
    durationMs: answer.ms,
    requestBody,
    responseBody: answer.body,
    ...(violations.length > 0 ? { violations } : {}),
  }, { secret: typeof req.headers['idempotency-key'] === 'string' ? req.headers['idempotency-key'] : undefined })
}

function badGateway(res: Response, req: Request, options: ProxyOptions, message: string, violations: DirectedViolation[]) {
  const body = { statusCode: 502, timestamp: isoStamp(options.now().getTime()), path: req.originalUrl, message, error: 'Bad Gateway', ctx: { violations } }
  res.status(502).type('application/json').end(JSON.stringify(body))
}

/** Mounts the proxy on every operation's path (the five's, then the rest of Novu's document), in place of the mock's own rules. */
export function mountProxy(app: express.Express, options: ProxyOptions): void {
  for (const operation of [...options.api.operations.values(), ...options.novu.operations.values()]) {
    app.route(operation.routePath)[operation.method.toLowerCase() as 'get']((req, res, next) => {
      noteOperation(res, operation.operationId)
      proxyRoute(operation, options)(req, res, next)
    })
  }
  app.use(forwardUnchecked(options))
}
