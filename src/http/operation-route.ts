import type { ServerResponse } from 'node:http'
import type { Operation } from '../contract/operation.ts'
import { validateRequest } from '../contract/validate-request.ts'
import type { TenantClocks } from '../clock/tenant-clocks.ts'
import { isoTime } from '../lib/iso-time.ts'
import type { Handler } from '../resources/operation-context.ts'
import { tenantFor } from '../resources/tenant.ts'
import type { KeyedWrite, Store } from '../store/store.ts'
import { apiKeyFrom } from './authenticate.ts'
import type { CorsHeaders } from './cors.ts'
import { errorAnswer } from './error-answer.ts'
import type { IdempotencyPort, Recording } from '../policies/idempotency/idempotency-port.ts'
import type { JournalPort } from '../journal/journal-port.ts'
import { applyFaults } from '../policies/faults/apply-faults.ts'
import type { FaultRulesPort } from '../policies/faults/fault-rules-port.ts'
import type { RateLimitPort } from '../policies/rate-limit-port.ts'
import { readBody } from './read-body.ts'
import { idempotencyKeyOf, paramsOf, requestLineOf, type RequestLine, type RouteRequest } from './request-parts.ts'
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
  /** Each tenant's time (docs/behaviour.md §8); absent, and before the tenant is known, `now` (the starting clock). */
  clocks?: Pick<TenantClocks, 'now'>
  /**
   * False for the admin API: its calls are not calls of the tenant, so they never make the store
   * hold it; looking reads the seed of a tenant not held, and a change admits it (docs/behaviour.md §3).
   */
  opensTenant?: boolean
  /** True for the admin API: a body that is not JSON is a 415, where the API reads forms and other types as the live service does (docs/behaviour.md §1.3). */
  jsonOnly?: boolean
  /** True where every operation needs an accepted key, those the document leaves open included (the control plane in strict mode, docs/behaviour.md §3). */
  keyRequired?: boolean
  /**
   * Wrap successful answers as `{"data": …}`, as the live service does (docs/behaviour.md §1.1). The
   * document describes the bare result, which is checked before it is wrapped.
   */
  envelope?: boolean
}

/** The list page already has its `data` and is never wrapped. */
const UNWRAPPED: ReadonlySet<string> = new Set(['listChannelConnections'])

/** What one call learned on its way in, for the steps after the answer. */
interface CallState {
  tenantKey?: string
  body?: unknown
  /** The content type of a body ignored for it (docs/behaviour.md §1.3), which the journal notes. */
  ignoredType?: string
  /** Set when this call opened an idempotency record that its answer must close. */
  recording?: Recording
  /** CORS's headers, which every answer of this call carries. */
  cors?: CorsHeaders
  /** Headers every answer of this call carries once its tenant is known (the rate limit's, `Preference-Applied`). */
  headers?: Record<string, string>
  /** The tenant's time, read once when the tenant is known: every stamp and time rule of the call uses it. */
  at?: Date
  /** Ends the call in the store: until then its tenant is never released (docs/behaviour.md §3). */
  end?: () => void
}

/**
 * Answers one call of an operation, its path parameters already matched. `headers` (CORS's) go on
 * every answer of the call, in its one `writeHead`.
 */
export type OperationCall = (req: RouteRequest, res: ServerResponse, params: Record<string, string>, headers?: CorsHeaders) => Promise<void>

/**
 * One operation's request path, in the order of docs/behaviour.md §1.3: authentication, tenant,
 * body, idempotency, document, then the handler's rules. Every answer is checked on the way out,
 * closes its idempotency record and is journaled.
 */
export function operationRoute(operation: Operation, handler: Handler, deps: RouteDependencies): OperationCall {
  return (req, res, params, headers) => {
    // Every field from the start: one shape for every call, keyed or not.
    const call: CallState = { cors: headers, tenantKey: undefined, body: undefined, ignoredType: undefined, recording: undefined, headers: undefined, at: undefined, end: undefined }
    // Every stamp of the call, errors included, reads the tenant's time once it is known.
    const timed = { ...deps, now: () => call.at ?? deps.now() }
    return answerCall(operation, handler, timed, req, res, params, call)
      .catch((error: unknown) => lastResort(error, req, res, timed, call))
      .finally(() => call.end?.())
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
      time: isoTime(deps.now().getTime()),
      operationId: operation.operationId,
      method: line.method,
      path: line.path,
      url: line.url,
      rawHeaders: req.rawHeaders,
      status: answer.status,
      durationMs: performance.now() - started,
      requestBody: call.ignoredType === undefined ? call.body : undefined,
      note: call.ignoredType === undefined ? undefined : `body ignored for its content type (${call.ignoredType})`,
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
  const tenantKey = operation.requiresAuth || deps.keyRequired ? apiKeyFrom(req.headers.authorization, deps.apiKeys) : undefined
  // Asked before the tenant is opened: with Redis both questions travel together.
  const time = tenantKey !== undefined && deps.clocks ? deps.clocks.now(tenantKey) : undefined
  if (time instanceof Promise) time.catch(() => undefined) // its failure is answered below, if the call gets that far
  if (tenantKey !== undefined && deps.opensTenant !== false) call.end = await deps.store.open(tenantKey)
  call.tenantKey = tenantKey
  if (time !== undefined) call.at = new Date(await time)
  if (tenantKey !== undefined && deps.rateLimiter) call.headers = await deps.rateLimiter.take(tenantKey, deps.now().getTime(), operation.operationId)
  const sent = operation.takesBody ? await readBody(req, res, deps.bodyLimit, deps.jsonOnly) : undefined
  call.body = sent?.value
  call.ignoredType = sent?.ignoredType
  if (tenantKey !== undefined && idempotencyKey !== undefined && deps.idempotency) {
    const request = { method: line.method, path: line.path, body: sent?.raw }
    const outcome = await deps.idempotency.begin(tenantKey, idempotencyKey, request, deps.now().getTime())
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
  const recordOf = call.recording && deps.idempotency?.recordOfWrite(call.recording, operation.successStatus)
  const store = recordOf ? keyedStore(deps.store, recordOf) : deps.store
  // The handler map is keyed by operationId; its input type is the one this operation validated.
  const result = await handler({ store, tenant: tenantFor(tenantKey ?? ''), input: input as never, now: deps.now })
  return { status: operation.successStatus, body: result }
}

/** The store as a keyed call's handler sees it: a change it commits is stored with the call's idempotency record. */
function keyedStore(store: Store, recordOf: (result: unknown) => KeyedWrite): Store {
  const keyed: Store = Object.create(store) as Store
  keyed.transact = (tenant, work) => store.transact(tenant, work, recordOf)
  return keyed
}
