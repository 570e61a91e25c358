import { isoStamp } from '../../lib/iso-time.ts'
import { bodyNote } from '../body/body-reading.ts'
import { checkedAnswer, checkedAnswerInSlices } from '../answers/response-check.ts'
import { slicedAnswer } from '../answers/sent-answer.ts'
import { headListOf, type Step } from './call.ts'

/**
 * The answer against the document before it leaves (docs/behaviour.md §1.2); a success checked
 * inside the transaction that wrote it is not checked again, a large one is checked in slices.
 */
export const checkAnswer: Step = (call) => {
  const answer = call.made()
  if (call.checked !== undefined && answer.body === call.checked) return
  const validate = call.run.operation.responseValidators.get(answer.status)
  if (!answer.sliced) call.answer = checkedAnswer(answer, validate, call.line.url, call)
  else return checkedAnswerInSlices(answer, validate, call.run.operation.splitResponse, call.line.url, call).then((checked) => void (call.answer = checked))
}

/**
 * The answer's JSON, serialized once: the envelope (docs/behaviour.md §1.1) is written around the
 * answer's own text, which a keyed call keeps too. A large answer of the control plane (never
 * journaled nor kept for a replay) is written in chunks as it is made.
 */
export const serialize: Step = (call) => {
  const answer = call.made()
  if (answer.sliced && !call.run.policies) return void (call.streamed = slicedAnswer(answer.status, headListOf(call, answer), answer.body))
  const body = call.run.wraps && answer.status < 300 && answer.body !== undefined ? { data: answer.body } : answer.body
  const own = answer.text ?? (answer.body === undefined ? '' : JSON.stringify(answer.body))
  call.answerBody = body
  call.ownText = own
  // `JSON.stringify({ data: body })` from the body's own text.
  call.answerText = body === answer.body ? own : `{"data":${own}}`
  call.note = bodyNote(call, answer.status)
}

/** Closes the call's idempotency record with its answer (docs/behaviour.md §4): kept, or (a forced answer) dropped. */
export const closeKeyedRecord: Step = (call) => {
  const { recording } = call
  if (recording === undefined) return
  const answer = call.made()
  const { idempotency } = call.run.policies!
  if (answer.forced) return idempotency.abandon(recording)
  const kept = idempotency.finish(recording, answer.status, call.ownText)
  // The change itself is stored already; a record that could not be is still replayed until a restart.
  if (kept) return kept.catch((error: unknown) => call.logger.error('an idempotency record was not stored', { error: String(error) }))
}

/** The call in its tenant's journal (docs/behaviour.md §9). */
export const journal: Step = (call) => {
  if (call.tenantKey === undefined) return
  const answer = call.made()
  const { method, path, url } = call.line
  try {
    call.run.policies!.journal.record(call.tenantKey, {
      time: isoStamp(call.now().getTime()),
      operationId: call.run.operation.operationId,
      method,
      path,
      url,
      rawHeaders: call.request.rawHeaders,
      status: answer.status,
      durationMs: performance.now() - call.started,
      requestBody: call.ignoredType === undefined ? call.body : undefined,
      note: call.note,
      responseBody: call.answerBody,
      violations: answer.violations,
      state: call.reads?.stated(),
    }, { secret: call.idempotencyKey, responseText: call.answerText })
  } catch (error) {
    // The answer stands: a change it made is stored, and a 500 now would say it was not.
    call.logger.error('a call could not be journaled', { method, path, error: String(error) })
  }
}

/** Each answer told with its tenant's key, to notice a client retrying a 503 or 429 (log/retry-hint.ts). */
export const noteRetries: Step = (call) => {
  if (call.tenantKey !== undefined) call.run.state.retries?.answered(call.tenantKey, `${call.line.method} ${call.line.path}`, call.made().status)
}
