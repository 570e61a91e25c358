import type { Operation } from '../contract/operation.ts'
import { validateRequestInSlices } from '../contract/validation/validate-in-slices.ts'
import { validateRequest } from '../contract/validation/validate-request.ts'
import { isoStamp } from '../lib/iso-time.ts'
import type { Recording } from '../policies/idempotency/idempotency-port.ts'
import { applyFaults } from '../policies/faults/apply-faults.ts'
import type { Handler } from '../resources/operation-context.ts'
import { tenantFor } from '../resources/tenant.ts'
import type { Store } from '../store/store.ts'
import { apiKeyFrom, apiKeyOrNone } from './authenticate.ts'
import { idempotencyKeyOf, paramsOf, requestLineOf, type CallRequest, type RequestLine } from './call-request.ts'
import { Serialized, SlicedJson } from '../answer/answer.ts'
import { callStore, checkedBeforeCommit } from './call-store.ts'
import { checkedAnswer, checkedAnswerInSlices, type Answer } from './check-answer.ts'
import { errorAnswer } from './error-answer.ts'
import type { CallPolicies, CoreState, Plane } from './planes.ts'
import { bodyNote, readBody, readJsonFirst } from './read-body.ts'
import { ReadCapture } from './read-capture.ts'
import { appendHeaders, slicedAnswer, type CallOutcome, type HeaderList } from './sent-answer.ts'

/** One call of an operation, its path parameters already matched, to its outcome. Never rejects. */
export type OperationPipeline = (request: CallRequest, params: Record<string, string>) => Promise<CallOutcome>

/** The list page already has its `data` and is never wrapped. */
const UNWRAPPED: ReadonlySet<string> = new Set(['listChannelConnections'])

/** What one call learned on its way in, for the steps after the answer. */
interface CallState {
  line: RequestLine
  idempotencyKey: string | undefined
  tenantKey?: string
  body?: unknown
  /** The content type of a body ignored for it (docs/behaviour.md §1.3), which the journal notes. */
  ignoredType?: string
  /** Set when the body was read as a form (docs/behaviour.md §1.3). */
  readAsForm?: true
  /** How the body was read, when that explains the answer (docs/behaviour.md §1.3): the journal's note and the log line's. */
  note?: string
  /** Set when this call opened an idempotency record that its answer must close. */
  recording?: Recording
  /** Headers every answer of this call carries once its tenant is known (the rate limit's, `Preference-Applied`). */
  headers?: Record<string, string>
  /** The tenant's time, read once when the tenant is known: every stamp and time rule of the call uses it. */
  at?: Date
  /** The records the handler read, as they were before the call: its provider state (docs/behaviour.md §9). */
  reads?: ReadCapture
  /** Ends the call in the store: until then its tenant is never released (docs/behaviour.md §3). */
  end?: () => void
  /** The success body checked against the document inside the transaction that wrote it, not checked again. */
  checked?: unknown
  /**
   * The state as this call reads it: its `now` is the tenant's time once the tenant is known (the
   * starting clock before), so every stamp of the call, errors included, reads the same instant.
   */
  timed: CoreState
}

/**
 * One operation's request path, in the order of docs/behaviour.md §1.3: a JSON body,
 * authentication, tenant (and its time, docs/behaviour.md §8), rate limit, a body of another type,
 * idempotency, faults and `Prefer`, document, then the handler's rules. Every answer is checked
 * on the way out, closes its idempotency record and is journaled; then the call ends in the store,
 * which may release its tenant from then on. Each step is a closure over what it needs of the
 * operation, the state and the plane.
 */
export function operationPipeline(operation: Operation, handler: Handler, state: CoreState, plane: Plane): OperationPipeline {
  const policies: CallPolicies | undefined = plane.name === 'api' ? plane.policies : undefined
  const wraps = plane.name === 'api' && plane.envelope && !UNWRAPPED.has(operation.operationId) && !operation.pageAnswer
  // The control plane takes JSON only; the API reads forms and other types as the live service does.
  const jsonOnly = plane.name === 'control'
  const needsKey = operation.requiresAuth || (plane.name === 'control' && plane.keyRequired === true)

  async function answerOf(request: CallRequest, params: Record<string, string>, call: CallState): Promise<Answer | 'drop'> {
    // Read before anything else (docs/behaviour.md §1.3); a refusal is journaled for the tenant the call names, if it names one.
    const first = request.hasBody
      ? await readJsonFirst(request).catch((error: unknown) => {
          call.tenantKey = policies && needsKey ? apiKeyOrNone(request.header('authorization'), state.apiKeys) : undefined
          throw error
        })
      : undefined
    const tenantKey = needsKey ? apiKeyFrom(request.header('authorization'), state.apiKeys) : undefined
    if (tenantKey !== undefined && policies) call.end = await state.store.open(tenantKey)
    // Read once the tenant is opened, from its value: with Redis the sync and the token (which reads the clock there) travel together.
    const time = tenantKey !== undefined ? state.clocks.read(tenantKey, policies !== undefined) : undefined
    if (typeof time === 'object') time.ms.catch(() => undefined) // its failure is answered below, if the call gets that far
    call.tenantKey = tenantKey
    // A time on its way is not waited for: the token is asked for at once, read at that time where the clock is kept; its outcome is answered in turn.
    const token = policies && typeof time === 'object' ? policies.rateLimiter.take(tenantKey!, time, operation.operationId) : undefined
    if (token instanceof Promise) token.catch(() => undefined)
    // In memory the clock and the limiter answer at once: awaited only when they do not.
    if (time !== undefined) call.at = new Date(typeof time === 'number' ? time : await time.ms)
    if (tenantKey !== undefined && policies) {
      const limits = token ?? policies.rateLimiter.take(tenantKey, call.timed.now().getTime(), operation.operationId)
      call.headers = limits instanceof Promise ? await limits : limits
    }
    // A JSON body sent to an operation that takes none was still read, and refused if it had to be.
    const sent = operation.takesBody && request.hasBody ? (first ?? (await readBody(request, jsonOnly, operation.multipart))) : undefined
    call.body = sent?.value
    call.ignoredType = sent?.ignoredType
    call.readAsForm = sent?.readAsForm
    if (tenantKey !== undefined && policies) {
      const replayed = call.idempotencyKey === undefined ? undefined : await replayOf(call, tenantKey, sent?.raw, policies)
      const settled = replayed ?? (await faultsOf(request, call, tenantKey, policies))
      if (settled !== undefined) return settled
    }
    return run(request, params, call, storeOf(call))
  }

  /**
   * The store as the call's handler sees it (callStore); the store itself when there is nothing to
   * add. In strict mode a change's answer is checked before it commits; warn and off send it as made.
   */
  function storeOf(call: CallState): Store {
    const recordOf = call.recording && policies?.idempotency.recordOfWrite(call.recording, operation.successStatus)
    const check = state.mode === 'strict' ? (result: unknown) => void (call.checked = checkedBeforeCommit(operation, result, call.line.url, call.timed)) : undefined
    return check || recordOf ? callStore(state.store, check, recordOf) : state.store
  }

  /** A keyed call: the replay of its key's answer, or (opening the key's record) nothing. */
  async function replayOf(call: CallState, tenantKey: string, raw: Uint8Array | undefined, { idempotency }: CallPolicies): Promise<Answer | undefined> {
    if (call.idempotencyKey === undefined) return undefined
    const { method, path } = call.line
    const outcome = await idempotency.begin(tenantKey, call.idempotencyKey, { method, path, body: raw && asBuffer(raw) }, call.timed.now().getTime())
    if (outcome.kind === 'replay') return { status: outcome.status, body: outcome.body, headers: { 'Idempotency-Replay': 'true' } }
    call.recording = outcome
    return undefined
  }

  /** The `Prefer` header and the fault rules: the answer they force, if any. */
  async function faultsOf(request: CallRequest, call: CallState, tenantKey: string, { faults, delayed }: CallPolicies): Promise<Answer | 'drop' | undefined> {
    const outcome = await applyFaults({
      operation,
      faults,
      delayed,
      tenantKey,
      method: call.line.method,
      path: call.line.path,
      originalUrl: call.line.url,
      body: call.body,
      prefer: request.header('prefer'),
      idempotencyKey: call.idempotencyKey,
      rateLimitReset: call.headers?.['RateLimit-Reset'],
      now: call.timed.now,
    })
    // Rare (a Prefer header, a fault rule): a copy here costs the usual call nothing.
    if (outcome?.applied !== undefined) call.headers = { ...call.headers, 'Preference-Applied': outcome.applied }
    return outcome?.answer
  }

  async function run(request: CallRequest, params: Record<string, string>, call: CallState, store: Store): Promise<Answer> {
    const requestParams = paramsOf(operation, request, call.line, params)
    // The control plane's bodies may be whole states, checked in slices (docs/behaviour.md §6); the API's are small.
    const input = jsonOnly ? await validateRequestInSlices(operation, requestParams, call.body) : validateRequest(operation, requestParams, call.body)
    // The handler map is keyed by operationId; its input type is the one this operation validated.
    // Only the API's calls are journaled, and so only theirs need their reads.
    const reads = policies ? (call.reads = new ReadCapture()).over(store) : store
    const result = await handler({ store: reads, tenant: tenantFor(call.tenantKey ?? ''), input: input as never, now: call.timed.now })
    if (result instanceof Serialized) return { status: operation.successStatus, body: result.value, text: result.text }
    if (result instanceof SlicedJson) return { status: operation.successStatus, body: result.value, sliced: true }
    return { status: operation.successStatus, body: result }
  }

  /** Closes the call's idempotency record with its answer: kept, or (a forced answer) dropped. */
  async function settle(call: CallState, answer: Answer, text: string): Promise<void> {
    if (!call.recording || !policies) return
    if (answer.forced) return policies.idempotency.abandon(call.recording)
    const kept = policies.idempotency.finish(call.recording, answer.status, text)
    // The change itself is stored already; a record that could not be is still replayed until a restart.
    if (kept) await kept.catch((error: unknown) => state.logger.error('an idempotency record was not stored', { error: String(error) }))
  }

  function journal(request: CallRequest, call: CallState, answer: Answer, body: unknown, text: string, started: number): void {
    if (call.tenantKey === undefined || !policies) return
    const { method, path, url } = call.line
    policies.journal.record(call.tenantKey, {
      time: isoStamp(call.timed.now().getTime()),
      operationId: operation.operationId,
      method,
      path,
      url,
      rawHeaders: request.rawHeaders,
      status: answer.status,
      durationMs: performance.now() - started,
      requestBody: call.ignoredType === undefined ? call.body : undefined,
      note: call.note,
      responseBody: body,
      violations: answer.violations,
      state: call.reads?.json(),
    }, { secret: call.idempotencyKey, responseText: text })
  }

  async function answerCall(request: CallRequest, params: Record<string, string>, call: CallState): Promise<CallOutcome> {
    const started = performance.now()
    let outcome: Answer | 'drop'
    try {
      outcome = await answerOf(request, params, call)
    } catch (error) {
      outcome = errorAnswer(error, call.line, call.timed)
    }
    if (outcome === 'drop') {
      if (call.recording) policies?.idempotency.abandon(call.recording)
      return 'drop'
    }
    const checked = call.checked !== undefined && outcome.body === call.checked
    const validate = operation.responseValidators.get(outcome.status)
    const answer = checked
      ? outcome
      : outcome.sliced
        ? await checkedAnswerInSlices(outcome, validate, operation.splitResponse, call.line.url, call.timed)
        : checkedAnswer(outcome, validate, call.line.url, call.timed)
    // Never journaled nor kept for a replay (the control plane's): written as it is made.
    if (answer.sliced && !policies) return slicedAnswer(answer.status, headListOf(call, answer), answer.body)
    const body = wraps && answer.status < 300 && answer.body !== undefined ? { data: answer.body } : answer.body
    // Serialized once: the envelope is written around the answer's own text, which a keyed call keeps too.
    const own = textOf(answer)
    const text = body === answer.body ? own : enveloped(own)
    if (call.recording !== undefined) await settle(call, answer, own)
    call.note = bodyNote(call, answer.status)
    try {
      journal(request, call, answer, body, text, started)
    } catch (error) {
      // The answer stands: a change it made is stored, and a 500 now would say it was not.
      state.logger.error('a call could not be journaled', { method: call.line.method, path: call.line.path, error: String(error) })
    }
    if (call.tenantKey !== undefined && policies) state.retries?.answered(call.tenantKey, `${call.line.method} ${call.line.path}`, answer.status)
    const head = headListOf(call, answer)
    if (call.idempotencyKey !== undefined) head.push('Idempotency-Key', call.idempotencyKey)
    return call.note === undefined ? { status: answer.status, head, text } : { status: answer.status, head, text, note: call.note }
  }

  return (request, params) => {
    // Every field from the start: one shape for every call, keyed or not.
    const call: CallState = {
      line: requestLineOf(request),
      idempotencyKey: idempotencyKeyOf(request),
      tenantKey: undefined,
      body: undefined,
      ignoredType: undefined,
      readAsForm: undefined,
      note: undefined,
      recording: undefined,
      headers: undefined,
      at: undefined,
      reads: undefined,
      end: undefined,
      checked: undefined,
      timed: state,
    }
    call.timed = { ...state, now: () => call.at ?? state.now() }
    return endedCall(request, params, call)
  }

  /** Ended once completely finished, its answer made and journaled, whatever happened. */
  async function endedCall(request: CallRequest, params: Record<string, string>, call: CallState): Promise<CallOutcome> {
    try {
      return await answerCall(request, params, call)
    } catch (error) {
      return lastResort(error, call)
    } finally {
      call.end?.()
    }
  }
}

/** A failure after the answer was made (journaling it): the documented 500, with the call's headers. */
function lastResort(error: unknown, call: CallState): CallOutcome {
  const answer = errorAnswer(error, call.line, call.timed)
  return { status: answer.status, head: headListOf(call, answer), text: JSON.stringify(answer.body) }
}

/** Every header an answer of the call carries: the call's (rate limit, preferences), then the answer's own, which win. */
function headListOf(call: CallState, answer: Answer): HeaderList {
  const head: HeaderList = []
  if (answer.headers === undefined) appendHeaders(head, call.headers)
  else appendHeaders(head, { ...call.headers, ...answer.headers })
  return head
}

/** The answer's JSON: made with its body already, or now; none for an answer without a body (a 204). */
const textOf = (answer: Answer): string => answer.text ?? (answer.body === undefined ? '' : JSON.stringify(answer.body))

/** `JSON.stringify({ data: body })` from the body's own text (a body of nothing is left out, as JSON.stringify leaves it). */
const enveloped = (text: string | undefined): string => (text === undefined ? '{}' : `{"data":${text}}`)

/** The same bytes as a Buffer, not copied: the idempotency fingerprint hashes a Buffer. */
const asBuffer = (bytes: Uint8Array): Buffer => (Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength))

