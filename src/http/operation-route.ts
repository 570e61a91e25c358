import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Operation, RequestParams } from '../contract/operation.ts'
import { parseQuery } from '../lib/parse-query.ts'
import { validateRequest } from '../contract/validate-request.ts'
import { isoTime } from '../lib/iso-time.ts'
import type { Handler } from '../resources/operation-context.ts'
import { RuleBroken } from '../resources/rule-broken.ts'
import { tenantFor } from '../resources/tenant.ts'
import { StoreWriteFailed, TenantLimitReached, type Store } from '../store/store.ts'
import { ApiError, generalProblem, tryAgainLater } from '../answer/api-error.ts'
import { apiKeyFrom } from './authenticate.ts'
import type { CorsHeaders } from './cors.ts'
import { errorBody } from '../answer/error-body.ts'
import type { IdempotencyPort, Recording } from '../policies/idempotency/idempotency-port.ts'
import type { JournalPort } from '../journal/journal-port.ts'
import { applyFaults } from '../policies/faults/apply-faults.ts'
import type { FaultRulesPort } from '../policies/faults/fault-rules-port.ts'
import type { RateLimitPort } from '../policies/rate-limit-port.ts'
import { readJsonBody } from './read-body.ts'
import { appendHeaders, checkedAnswer, sendJsonText, type Answer, type HeaderList, type ResponseCheck } from './respond.ts'

export interface RouteDependencies extends ResponseCheck {
  store: Store
  apiKeys: ReadonlySet<string> | undefined
  bodyLimit: string
  /** Absent for routes that ignore the idempotency header (the admin API). */
  idempotency?: IdempotencyPort
  /** Absent for routes whose calls are not recorded (the admin API). */
  journal?: JournalPort
  /** Absent for routes outside the rate limit (the admin API). */
  rateLimiter?: RateLimitPort
  /** Absent for routes that take no Prefer header nor fault rules (the admin API). */
  faults?: FaultRulesPort
  /**
   * False for the admin API: its calls are not calls of the tenant, so they never make the store
   * hold it; looking reads the seed of a tenant not held, and a change admits it (docs/behaviour.md §3).
   */
  opensTenant?: boolean
  /**
   * Wrap successful answers as `{"data": …}`, as the live service does (docs/behaviour.md §1.1). The
   * document describes the bare result, which is checked before it is wrapped.
   */
  envelope?: boolean
}

/** The list page already has its `data` and is never wrapped. */
const UNWRAPPED: ReadonlySet<string> = new Set(['listChannelConnections'])

const WRITE_METHODS: ReadonlySet<string> = new Set(['POST', 'PATCH', 'PUT', 'DELETE'])

/** What one call learned on its way in, for the steps after the answer. */
interface CallState {
  tenantKey?: string
  body?: unknown
  /** Set when this call opened an idempotency record that its answer must close. */
  recording?: Recording
  /** CORS's headers, which every answer of this call carries. */
  cors?: CorsHeaders
  /** Headers every answer of this call carries once its tenant is known (the rate limit's, `Preference-Applied`). */
  headers?: Record<string, string>
}

/** A request as node or express hands it over; express's mount point, when any, is in originalUrl. */
export type RouteRequest = IncomingMessage & { originalUrl?: string }

/**
 * Answers one call of an operation, its path parameters already matched. `headers` (CORS's) go on
 * every answer of the call, in its one `writeHead`.
 */
export type OperationCall = (req: RouteRequest, res: ServerResponse, params: Record<string, string>, headers?: CorsHeaders) => Promise<void>

/** What an answer to a request needs to know of it. */
interface RequestLine {
  method: string
  /** As sent: path and query. */
  url: string
  /** The path alone. */
  path: string
}

/**
 * One operation's request path, in the order of docs/behaviour.md §1.3: authentication, tenant,
 * body, idempotency, document, then the handler's rules. Every answer is checked on the way out,
 * closes its idempotency record and is journaled.
 */
export function operationRoute(operation: Operation, handler: Handler, deps: RouteDependencies): OperationCall {
  return (req, res, params, headers) => {
    // Every field from the start: one shape for every call, keyed or not.
    const call: CallState = { cors: headers, tenantKey: undefined, body: undefined, recording: undefined, headers: undefined }
    return answerCall(operation, handler, deps, req, res, params, call).catch((error: unknown) => lastResort(error, req, res, deps, call))
  }
}

async function answerCall(
  operation: Operation,
  handler: Handler,
  deps: RouteDependencies,
  req: RouteRequest,
  res: ServerResponse,
  params: Record<string, string>,
  call: CallState,
): Promise<void> {
  const started = performance.now()
  const arrived = deps.now()
  const line = requestLineOf(req)
  const idempotencyKey = idempotencyKeyOf(req)
  const outcome = await answerOf(operation, handler, deps, { req, res, line, params }, idempotencyKey, call).catch((error: unknown) =>
    errorAnswer(error, line, deps),
  )
  if (outcome === 'drop') {
    if (call.recording) deps.idempotency?.abandon(call.recording)
    return void req.socket.destroy()
  }
  const answer = checkedAnswer(outcome, operation.responseValidators.get(outcome.status), line.url, deps)
  const body = deps.envelope && answer.status < 300 && !UNWRAPPED.has(operation.operationId) ? { data: answer.body } : answer.body
  const text = JSON.stringify(body)
  if (call.recording) {
    if (answer.forced) deps.idempotency?.abandon(call.recording)
    else {
      const kept = deps.idempotency?.finish(call.recording, answer.status, body === answer.body ? text : JSON.stringify(answer.body))
      // The change itself is stored already; a record that could not be is still replayed until a restart.
      if (kept) await kept.catch((error: unknown) => deps.logger.error('an idempotency record was not stored', { error: String(error) }))
    }
  }
  if (call.tenantKey !== undefined) {
    deps.journal?.record(call.tenantKey, {
      time: isoTime(arrived.getTime()),
      operationId: operation.operationId,
      method: line.method,
      path: line.path,
      url: line.url,
      rawHeaders: req.rawHeaders,
      status: answer.status,
      durationMs: performance.now() - started,
      requestBody: call.body,
      responseBody: body,
      violations: answer.violations,
    }, { secret: idempotencyKey, responseText: text })
  }
  const head = headListOf(call, answer)
  if (idempotencyKey !== undefined) head.push('Idempotency-Key', idempotencyKey)
  sendJsonText(res, answer.status, head, text)
}

/** A failure after the answer was made (sending it, journaling it): a 500 if nothing was sent yet. */
function lastResort(error: unknown, req: RouteRequest, res: ServerResponse, deps: RouteDependencies, call: CallState): void {
  const answer = errorAnswer(error, requestLineOf(req), deps)
  if (res.headersSent) return void res.destroy()
  sendJsonText(res, answer.status, headListOf(call, answer), JSON.stringify(answer.body))
}

/** Every header an answer of the call carries: CORS's, then the call's (rate limit, preferences), then the answer's own, which win. */
function headListOf(call: CallState, answer: Answer): HeaderList {
  const head: HeaderList = []
  appendHeaders(head, call.cors)
  if (answer.headers === undefined) appendHeaders(head, call.headers)
  else appendHeaders(head, { ...call.headers, ...answer.headers })
  return head
}

interface Incoming {
  req: RouteRequest
  res: ServerResponse
  line: RequestLine
  params: Record<string, string>
}

async function answerOf(
  operation: Operation,
  handler: Handler,
  deps: RouteDependencies,
  { req, res, line, params }: Incoming,
  idempotencyKey: string | undefined,
  call: CallState,
): Promise<Answer | 'drop'> {
  const tenantKey = operation.requiresAuth ? apiKeyFrom(req.headers.authorization, deps.apiKeys) : undefined
  if (tenantKey !== undefined && deps.opensTenant !== false) await deps.store.open(tenantKey)
  call.tenantKey = tenantKey
  if (tenantKey !== undefined && deps.rateLimiter) call.headers = await deps.rateLimiter.take(tenantKey, Date.now(), operation.operationId)
  const sent = operation.takesBody ? await readJsonBody(req, res, deps.bodyLimit) : undefined
  call.body = sent?.value
  if (tenantKey !== undefined && idempotencyKey !== undefined && deps.idempotency) {
    const request = { method: line.method, path: line.path, body: sent?.raw }
    const outcome = await deps.idempotency.begin(tenantKey, idempotencyKey, request, Date.now())
    if (outcome.kind === 'replay') return { status: outcome.status, body: outcome.body, headers: { 'Idempotency-Replay': 'true' } }
    call.recording = outcome
  }
  if (tenantKey !== undefined && deps.faults) {
    const faults = await applyFaults({
      operation,
      faults: deps.faults,
      tenantKey,
      method: line.method,
      path: line.path,
      originalUrl: line.url,
      body: call.body,
      prefer: req.headers.prefer?.toString(),
      idempotencyKey,
      rateLimitReset: call.headers?.['RateLimit-Reset'],
      now: deps.now,
    })
    // Rare (a Prefer header, a fault rule): a copy here costs the usual call nothing.
    if (faults?.applied !== undefined) call.headers = { ...call.headers, 'Preference-Applied': faults.applied }
    if (faults?.answer !== undefined) return faults.answer
  }
  const input = validateRequest(operation, paramsOf(operation, req, line, params), call.body)
  // The handler map is keyed by operationId; its input type is the one this operation validated.
  const result = await handler({ store: deps.store, tenant: tenantFor(tenantKey ?? ''), input: input as never, now: deps.now })
  return { status: operation.successStatus, body: result }
}

function requestLineOf(req: RouteRequest): RequestLine {
  const url = req.originalUrl ?? req.url ?? '/'
  const query = url.indexOf('?')
  return { method: req.method ?? 'GET', url, path: query === -1 ? url : url.slice(0, query) }
}

/** An empty key is no key, as the live service tests it by truthiness (docs/behaviour.md §4). */
function idempotencyKeyOf(req: IncomingMessage): string | undefined {
  if (!WRITE_METHODS.has(req.method ?? '')) return undefined
  const key = req.headers['idempotency-key']
  return typeof key === 'string' && key !== '' ? key : undefined
}

/** More query parameters than any operation takes many times over: refused before parsing them. */
const MAX_QUERY_PARAMETERS = 100

function paramsOf(operation: Operation, req: IncomingMessage, line: RequestLine, params: Record<string, string>): RequestParams {
  const query = parseQuery(line.url)
  const count = Object.values(query).reduce((sum, value) => sum + (Array.isArray(value) ? value.length : 1), 0)
  if (count > MAX_QUERY_PARAMETERS) {
    throw generalProblem([`at most ${MAX_QUERY_PARAMETERS} query parameters, got ${count}`])
  }
  return {
    // Copied: validation coerces in place, and express's params are its own.
    path: { ...params },
    query,
    header: declaredHeaders(operation, req.headers),
  }
}

/**
 * The headers the document declares for the operation (the rest are not its to check), copied:
 * validation coerces in place. Their names are the document's, never the client's, so a plain
 * object is safe here (and several times faster to fill and read than a prototype-free one).
 */
function declaredHeaders(operation: Operation, headers: IncomingMessage['headers']): Record<string, unknown> {
  const declared: Record<string, unknown> = {}
  for (const name of operation.headerNames) if (headers[name] !== undefined) declared[name] = headers[name]
  return declared
}

export function errorAnswer(error: unknown, line: Omit<RequestLine, 'path'>, deps: Pick<RouteDependencies, 'logger' | 'now'>): Answer {
  const apiError = error instanceof ApiError ? error : error instanceof RuleBroken ? answerOfRule(error) : unexpected(error, line, deps)
  if (apiError.details.fields) deps.logger.debug('request broke the document', { method: line.method, path: line.url.split('?')[0], fields: apiError.details.fields })
  return {
    status: apiError.status,
    body: errorBody(apiError, line.url, deps.now()),
    ...(apiError.details.headers ? { headers: apiError.details.headers } : {}),
  }
}

/** The live service answers a broken rule with a 400, a missing record with a 404. */
function answerOfRule({ kind, code, message }: RuleBroken): ApiError {
  return new ApiError(kind === 'missing' ? 404 : 400, code, message)
}

function unexpected(error: unknown, { method, url }: Omit<RequestLine, 'path'>, deps: Pick<RouteDependencies, 'logger'>): ApiError {
  const path = url.split('?')[0]
  if (error instanceof TenantLimitReached) {
    deps.logger.warn('new tenant refused: every tenant holds writes', { maxTenants: error.maxTenants })
    return tryAgainLater('TENANT_LIMIT', 60)
  }
  if (error instanceof StoreWriteFailed) {
    deps.logger.error('a change was not stored, and not acknowledged', { method, path, error: error.message })
    return tryAgainLater('STORE_WRITE_FAILED', 1)
  }
  deps.logger.error('unexpected error', { method, path, error: String((error as Error)?.stack ?? error) })
  return new ApiError(500, 'INTERNAL', 'Internal Server Error')
}

