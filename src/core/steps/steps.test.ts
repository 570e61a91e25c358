import { describe, expect, it } from 'vitest'
import { ApiError } from '../../answer/api-error.ts'
import type { Operation } from '../../contract/operation.ts'
import type { CallRequest } from '../call-request.ts'
import type { CallPolicies, CoreState } from '../planes.ts'
import { serialize } from './answer-steps.ts'
import { Call, type OperationRun, type Step } from './call.ts'
import { replayKeyed } from './policy-steps.ts'
import { runCall } from './run-call.ts'
import { authenticate, limitRate } from './tenant-steps.ts'

const LOGGER = { error() {}, warn() {}, info() {}, debug() {} }
const operation = { operationId: 'getSubscriber', successStatus: 200, responseValidators: new Map(), requiresAuth: true } as unknown as Operation

/** A call of `operation` with the given headers, its run's parts replaced as a test needs. */
function callOf(headers: Record<string, string>, run: Partial<OperationRun> = {}, method = 'GET'): Call {
  const state = { mode: 'off', logger: LOGGER, now: () => new Date(0), apiKeys: undefined } as unknown as CoreState
  const request: CallRequest = { method, url: '/v2/subscribers/x?y=1', header: (name) => headers[name], rawHeaders: [], hasBody: false, bytes: async () => new Uint8Array() }
  return new Call({ operation, handler: async () => ({}), state, policies: undefined, wraps: false, needsKey: true, ...run }, request, {})
}

describe('the steps of a call, each alone', () => {
  it('authenticate: the key of Authorization, or the 401 that names what is wrong', () => {
    const call = callOf({ authorization: 'ApiKey k1' })
    authenticate(call)
    expect(call.tenantKey).toBe('k1')
    expect(() => authenticate(callOf({}))).toThrow(expect.objectContaining({ status: 401, code: 'MISSING_AUTHORIZATION' }))
  })

  it('limitRate: the limiter read at the tenant’s time, its headers on the call, nothing awaited in memory', () => {
    const taken: number[] = []
    const rateLimiter = { take: (_key: string, now: number) => (taken.push(now), { 'RateLimit-Remaining': '99' }), refill() {} }
    const call = callOf({}, { policies: { rateLimiter } as unknown as CallPolicies })
    call.tenantKey = 'k1'
    call.time = 5000
    expect(limitRate(call)).toBeUndefined()
    expect([taken, call.headers, call.now().getTime()]).toEqual([[5000], { 'RateLimit-Remaining': '99' }, 5000])
  })

  it('replayKeyed: a replay answers the call, marked as one; a call without a key passes at once', async () => {
    const idempotency = { begin: () => ({ kind: 'replay', status: 201, body: { a: 1 } }) }
    const keyed = callOf({ 'idempotency-key': 'once' }, { policies: { idempotency } as unknown as CallPolicies }, 'POST')
    keyed.tenantKey = 'k1'
    await replayKeyed(keyed)
    expect(keyed.answer).toEqual({ status: 201, body: { a: 1 }, headers: { 'Idempotency-Replay': 'true' } })
    expect(replayKeyed(callOf({ 'idempotency-key': 'once' }))).toBeUndefined()
  })

  it('serialize: a success wrapped as {"data": …} from its own text, which a replay keeps', () => {
    const call = callOf({}, { wraps: true, policies: {} as CallPolicies })
    call.answer = { status: 200, body: { id: 'x' } }
    serialize(call)
    expect([call.answerText, call.ownText]).toEqual(['{"data":{"id":"x"}}', '{"id":"x"}'])
  })
})

describe('runCall', () => {
  it('runs the steps in turn until one answers, an error being the answer, then every step after it', async () => {
    const ran: string[] = []
    const step = (name: string, act?: (call: Call) => void): Step => (call) => void (ran.push(name), act?.(call))
    const refuse = step('refuse', () => {
      throw new ApiError(409, 'CONFLICT', 'taken')
    })
    const outcome = await runCall(callOf({}), { toAnswer: [step('a'), refuse, step('never')], afterAnswer: [step('after'), serialize] })
    expect(ran).toEqual(['a', 'refuse', 'after'])
    expect(outcome).toMatchObject({ status: 409, text: expect.stringContaining('"message":"taken"') })
  })
})
