import type { Answer } from '../../answer/answer.ts'
import type { Operation } from '../../contract/operation.ts'
import type { PendingTime } from '../../policies/clock/tenant-clocks.ts'
import type { Recording } from '../../policies/idempotency/idempotency.ts'
import type { Handler } from '../../resources/operation-context.ts'
import { idempotencyKeyOf, requestLineOf, type CallRequest, type RequestLine } from '../call-request.ts'
import type { ResponseValidation } from '../answers/response-check.ts'
import type { CallPolicies, CoreState } from '../planes.ts'
import type { ReadCapture } from '../call-records/read-capture.ts'
import type { SentBody } from '../body/body-reading.ts'
import type { HeaderList, SentAnswer } from '../answers/sent-answer.ts'

/**
 * One step of a call (docs/behaviour.md §1.3): it reads and writes the call, and ends its way in by
 * setting `call.answer`. Async only where it waits: a step that answers at once costs no await.
 */
export type Step = (call: Call) => void | Promise<void>

/** What one operation's calls share, made once when the operation is mounted. */
export interface OperationRun {
  operation: Operation
  handler: Handler
  state: CoreState
  /** The API's (undefined on the control plane, whose calls pass through none of them). */
  policies: CallPolicies | undefined
  /** Successful answers wrapped as `{"data": …}` (docs/behaviour.md §1.1). */
  wraps: boolean
  /** Whether the call must name an accepted key. */
  needsKey: boolean
}

/**
 * One call on its way through the steps: what it learned on its way in, its answer, and what the
 * answer became on its way out. One object per call, its fields all set from the start (one shape
 * for every call, keyed or not); it is also the call's `ResponseCheck`, its clock the tenant's.
 */
export class Call {
  readonly started = performance.now()
  readonly line: RequestLine
  readonly idempotencyKey: string | undefined
  tenantKey: string | undefined = undefined
  /** The tenant's time as asked for when the tenant is opened: a number, or (Redis) on its way. */
  time: number | PendingTime | undefined = undefined
  /** The tenant's time, read once when the tenant is known: every stamp and time rule of the call uses it. */
  at: Date | undefined = undefined
  /** Ends the call in the store: until then its tenant is never released (docs/behaviour.md §3). */
  end: (() => void) | undefined = undefined
  /** A JSON body read before anything else, kept for the operation if it takes one. */
  readFirst: SentBody | undefined = undefined
  body: unknown = undefined
  /** The bytes as sent, for an idempotency key's fingerprint. */
  raw: Uint8Array | undefined = undefined
  /** The content type of a body ignored for it (docs/behaviour.md §1.3), which the journal notes. */
  ignoredType: string | undefined = undefined
  /** Set when the body was read as a form (docs/behaviour.md §1.3). */
  readAsForm: true | undefined = undefined
  /** Headers every answer of this call carries once its tenant is known (the rate limit's, `Preference-Applied`). */
  headers: Record<string, string> | undefined = undefined
  /** Set when this call opened an idempotency record that its answer must close. */
  recording: Recording | undefined = undefined
  /** The input the document validated, for the rule. */
  input: unknown = undefined
  /** The records the handler read, as they were before the call: its provider state (docs/behaviour.md §9). */
  reads: ReadCapture | undefined = undefined
  /** The success body checked against the document inside the transaction that wrote it, not checked again. */
  checked: unknown = undefined
  /** What ends the call's way in: an answer, or (a fault) a dropped connection. */
  answer: Answer | 'drop' | undefined = undefined
  /** The answer's body as sent (enveloped or not), its JSON, and the answer's own JSON (what a replay keeps). */
  answerBody: unknown = undefined
  answerText = ''
  ownText = ''
  /** How the body was read, when that explains the answer (docs/behaviour.md §1.3): the journal's note and the log line's. */
  note: string | undefined = undefined
  /** Set when the answer goes out in chunks (a large answer of the control plane). */
  streamed: SentAnswer | undefined = undefined

  constructor(
    readonly run: OperationRun,
    readonly request: CallRequest,
    readonly params: Record<string, string>,
  ) {
    this.line = requestLineOf(request)
    this.idempotencyKey = idempotencyKeyOf(request)
  }

  /** The tenant's time once it is known, the starting clock before: handed to the handler and the policies as it is. */
  readonly now = (): Date => this.at ?? this.run.state.now()

  get mode(): ResponseValidation {
    return this.run.state.mode
  }

  get logger() {
    return this.run.state.logger
  }

  /** The answer, for the steps after it is made. */
  made(): Answer {
    if (this.answer === undefined || this.answer === 'drop') throw new Error('a step after the answer ran without one')
    return this.answer
  }
}

/** Every header an answer of the call carries: the call's (rate limit, preferences), then the answer's own, which win. */
export function headListOf(call: Call, answer: Answer): HeaderList {
  const head: HeaderList = []
  const headers = answer.headers === undefined ? call.headers : { ...call.headers, ...answer.headers }
  for (const name in headers) head.push(name, headers[name]!)
  return head
}
