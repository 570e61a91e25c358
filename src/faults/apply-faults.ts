import { setTimeout as sleep } from 'node:timers/promises'
import type { Operation } from '../contract/operation.ts'
import type { Answer } from '../http/respond.ts'
import type { FaultRules } from './fault-rules.ts'
import { forcedAnswer } from './forced-answer.ts'
import { parsePrefer } from './prefer.ts'

export interface FaultContext {
  operation: Operation
  faults: FaultRules | undefined
  tenantKey: string
  method: string
  path: string
  originalUrl: string
  body: unknown
  prefer: string | undefined
  idempotencyKey: string | undefined
  now: () => Date
}

/**
 * The `Prefer` header and the tenant's fault rules: waits for any latency they add, then gives
 * the answer they force, `'drop'` to close the connection, or undefined to run the operation.
 */
export async function applyFaults(context: FaultContext): Promise<Answer | 'drop' | undefined> {
  const { operation } = context
  const preference = parsePrefer(context.prefer)
  const effect = context.faults?.apply(context.tenantKey, {
    operationId: operation.operationId,
    method: context.method,
    path: context.path,
    body: context.body,
    documents: (status) => operation.responseValidators.has(status),
  })
  const delay = (preference.delayMs ?? 0) + (effect?.latencyMs ?? 0)
  if (delay > 0) await sleep(delay)
  if (effect?.drop) return 'drop'
  const base = { path: context.originalUrl, now: context.now() }
  if (preference.code !== undefined || preference.example !== undefined) {
    const status = preference.code ?? operation.successStatus
    const exampleName = preference.example
    return forcedAnswer(operation, { ...base, status, exampleName, message: `Forced by the Prefer header (code=${status})` })
  }
  const respond = effect?.respond
  if (!respond) return undefined
  const message =
    respond.status === 409 && context.idempotencyKey !== undefined
      ? `Request with key "${context.idempotencyKey}" is currently being processed. Please retry after 1 second`
      : `Injected by fault rule ${respond.ruleId}`
  return forcedAnswer(operation, { ...base, status: respond.status, body: respond.body, headers: respond.headers ?? {}, message })
}
