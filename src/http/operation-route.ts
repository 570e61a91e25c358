import type { Request, RequestHandler } from 'express'
import type { Operation, RequestParams } from '../contract/operation.ts'
import { parseQuery } from '../contract/parse-query.ts'
import { validateRequest } from '../contract/validate-request.ts'
import type { Handler } from '../resources/operation-context.ts'
import { tenantFor } from '../resources/tenant.ts'
import { TenantLimitReached, type Store } from '../store/store.ts'
import { ApiError } from './api-error.ts'
import { apiKeyFrom } from './authenticate.ts'
import { errorBody } from './error-body.ts'
import type { IdempotencyRecords } from './idempotency.ts'
import { readJsonBody } from './read-body.ts'
import { checkedAnswer, sendJson, type Answer, type ResponseCheck } from './respond.ts'

export interface RouteDependencies extends ResponseCheck {
  store: Store
  apiKeys: ReadonlySet<string> | undefined
  bodyLimit: string
  /** Absent for routes that ignore the idempotency header (the admin API). */
  idempotency?: IdempotencyRecords
}

const WRITE_METHODS: ReadonlySet<string> = new Set(['POST', 'PATCH', 'PUT', 'DELETE'])
const RETRY_LATER = 'Please wait some time, then try again.'

/**
 * One operation's request path, in the order of behaviour.md §1.3: authentication, tenant,
 * body, idempotency, document, then the handler's rules. Every answer is checked on the way out.
 */
export function operationRoute(operation: Operation, handler: Handler, deps: RouteDependencies): RequestHandler {
  return async (req, res) => {
    const idempotencyKey = idempotencyKeyOf(req)
    const echo = idempotencyKey === undefined ? undefined : { 'Idempotency-Key': idempotencyKey }
    let tenantKey: string | undefined
    let recording: { tenant: string; key: string } | undefined
    let answer: Answer
    try {
      tenantKey = operation.requiresAuth ? apiKeyFrom(req.headers.authorization, deps.apiKeys) : undefined
      const tenant = tenantFor(tenantKey ?? '')
      if (tenantKey !== undefined) await openTenant(deps, tenantKey)
      const body = operation.takesBody ? await readJsonBody(req, res, deps.bodyLimit) : undefined
      if (tenantKey !== undefined && idempotencyKey !== undefined && deps.idempotency) {
        const outcome = deps.idempotency.begin(tenantKey, idempotencyKey, { method: req.method, path: req.path, body }, Date.now())
        if (outcome.kind === 'replay') {
          return sendJson(res, { ...outcome, headers: { ...echo, 'Idempotency-Replay': 'true' } })
        }
        recording = { tenant: tenantKey, key: idempotencyKey }
      }
      const input = validateRequest(operation, paramsOf(req), body)
      // The handler map is keyed by operationId; its input type is the one this operation validated.
      const result = await handler({ store: deps.store, tenant, input: input as never, now: deps.now })
      answer = { status: operation.successStatus, body: result }
    } catch (error) {
      answer = errorAnswer(error, req, deps)
    }
    answer = checkedAnswer(answer, operation.responseValidators.get(answer.status), req.originalUrl, deps)
    if (recording) deps.idempotency?.finish(recording.tenant, recording.key, answer.status, answer.body)
    sendJson(res, { ...answer, headers: { ...answer.headers, ...echo } })
  }
}

async function openTenant(deps: RouteDependencies, tenantKey: string): Promise<void> {
  try {
    await deps.store.open(tenantKey)
  } catch (error) {
    if (!(error instanceof TenantLimitReached)) throw error
    deps.logger.warn('new tenant refused: every tenant holds writes', { maxTenants: error.maxTenants })
    throw new ApiError(503, 'TENANT_LIMIT', RETRY_LATER, { headers: { 'Retry-After': '60' } })
  }
}

function idempotencyKeyOf(req: Request): string | undefined {
  if (!WRITE_METHODS.has(req.method)) return undefined
  const key = req.headers['idempotency-key']
  return typeof key === 'string' ? key : undefined
}

function paramsOf(req: Request): RequestParams {
  return {
    path: Object.assign(Object.create(null), req.params),
    query: parseQuery(req.url),
    header: Object.assign(Object.create(null), req.headers),
  }
}

export function errorAnswer(error: unknown, req: Request, deps: Pick<RouteDependencies, 'logger' | 'now'>): Answer {
  const apiError = error instanceof ApiError ? error : unexpected(error, req, deps)
  return {
    status: apiError.status,
    body: errorBody(apiError, req.originalUrl, deps.now()),
    ...(apiError.details.headers ? { headers: apiError.details.headers } : {}),
  }
}

function unexpected(error: unknown, req: Request, deps: Pick<RouteDependencies, 'logger'>): ApiError {
  deps.logger.error('unexpected error', { method: req.method, path: req.path, error: String((error as Error)?.stack ?? error) })
  return new ApiError(500, 'INTERNAL', 'Internal Server Error')
}

