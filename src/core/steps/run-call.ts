import { errorAnswer } from '../answers/error-answer.ts'
import type { CallOutcome } from '../answers/sent-answer.ts'
import { headListOf, type Call } from './call.ts'
import type { CallSteps } from './call-steps.ts'

/**
 * Runs a call through its steps to its outcome. Never rejects: an error on the way in is the
 * call's answer (docs/behaviour.md §1.2), one after it the documented 500. The call ends in the
 * store once completely finished, its answer made and journaled, whatever happened.
 */
export async function runCall(call: Call, { toAnswer, afterAnswer }: CallSteps): Promise<CallOutcome> {
  try {
    try {
      for (let i = 0; i < toAnswer.length && call.answer === undefined; i++) {
        const running = toAnswer[i]!(call)
        if (running !== undefined) await running
      }
    } catch (error) {
      call.answer = errorAnswer(error, call.line, call)
    }
    if (call.answer === 'drop') return 'drop'
    for (let i = 0; i < afterAnswer.length; i++) {
      const running = afterAnswer[i]!(call)
      if (running !== undefined) await running
    }
    return outcomeOf(call)
  } catch (error) {
    const answer = errorAnswer(error, call.line, call)
    return { status: answer.status, head: headListOf(call, answer), text: JSON.stringify(answer.body) }
  } finally {
    call.end?.()
  }
}

/** The answer as the door sends it: the call's headers, the answer's, and the key it was sent with. */
function outcomeOf(call: Call): CallOutcome {
  if (call.streamed !== undefined) return call.streamed
  const answer = call.made()
  const head = headListOf(call, answer)
  if (call.idempotencyKey !== undefined) head.push('Idempotency-Key', call.idempotencyKey)
  const { status } = answer
  return call.note === undefined ? { status, head, text: call.answerText } : { status, head, text: call.answerText, note: call.note }
}
