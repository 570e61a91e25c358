import { setTimeout as sleep } from 'node:timers/promises'
import type { Operation } from '../../contract/operation.ts'
import type { Answer } from '../../answer/answer.ts'
import type { MaybePromise } from '../../lib/maybe-promise.ts'
import type { FaultEffect, FaultRules } from './fault-rules.ts'
import { tooManyDelayed, type DelayedCalls } from './delayed-calls.ts'
import { forcedAnswer } from './forced-answer.ts'
import { parsePrefer, type Preference } from './prefer.ts'

export interface FaultContext {
  operation: Operation
  faults: FaultRules | undefined
  /** The calls each tenant has waiting out a delay, bounded. */
  delayed: DelayedCalls
  tenantKey: string
  method: string
  path: string
  originalUrl: string
  body: unknown
  prefer: string | undefined
  idempotencyKey: string | undefined
  /** The call's `RateLimit-Reset`, for a forced 429. */
  rateLimitReset: string | undefined
  now: () => Date
}

/** What the `Prefer` header and the fault rules did to a call. */
export interface FaultOutcome {
  /** The answer they force, or `'drop'` to close the connection; absent: run the operation. */
  answer?: Answer | 'drop'
  /** The preferences honoured, for `Preference-Applied`. */
  applied?: string
}

/**
 * The `Prefer` header and the tenant's fault rules: waits for any latency they add, then says
 * what they force. Undefined when neither touched the call (the usual case: nothing allocated),
 * at once when the rules are in memory: a promise for every call was one of its largest costs.
 */
export function applyFaults(context: FaultContext): MaybePromise<FaultOutcome | undefined> {
  const { operation } = context
  const preference = parsePrefer(context.prefer, operation)
  const effect = context.faults?.apply(context.tenantKey, {
    operationId: operation.operationId,
    method: context.method,
    path: context.path,
    body: context.body,
    documents: (status) => operation.responseValidators.has(status),
  })
  if (effect instanceof Promise) return effect.then((found) => outcomeOf(context, preference, found))
  return outcomeOf(context, preference, effect)
}

function outcomeOf(context: FaultContext, preference: Preference, effect: FaultEffect | undefined): MaybePromise<FaultOutcome | undefined> {
  if (preference.applied === undefined && effect === undefined) return undefined
  return forced(context, preference, effect)
}

async function forced(context: FaultContext, preference: Preference, effect: FaultEffect | undefined): Promise<FaultOutcome> {
  const { operation } = context
  const delay = (preference.delayMs ?? 0) + (effect?.latencyMs ?? 0)
  if (delay > 0) {
    const release = context.delayed.hold(context.tenantKey)
    if (!release) return { answer: tooManyDelayed(context.originalUrl, context.now(), context.rateLimitReset) }
    try {
      await sleep(delay)
    } finally {
      release()
    }
  }
  const applied = preference.applied
  if (effect?.drop) return { answer: 'drop', applied }
  const base = { path: context.originalUrl, now: context.now(), rateLimitReset: context.rateLimitReset }
  if (preference.code !== undefined || preference.example !== undefined) {
    const status = preference.code ?? operation.successStatus
    const exampleName = preference.example
    return { answer: forcedAnswer(operation, { ...base, status, exampleName, message: `Forced by the Prefer header (code=${status})` }), applied }
  }
  const respond = effect?.respond
  if (!respond) return { applied }
  const message =
    respond.status === 409 && context.idempotencyKey !== undefined
      ? `Request with key "${context.idempotencyKey}" is currently being processed. Please retry after 1 second`
      : `Injected by fault rule ${respond.ruleId}`
  return { answer: forcedAnswer(operation, { ...base, status: respond.status, body: respond.body, headers: respond.headers ?? {}, message }), applied }
}
