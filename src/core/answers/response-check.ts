import type { ErrorObject, ValidateFunction } from 'ajv/dist/2020.js'
import type { Answer, Violation } from '../../answer/answer.ts'
import { isoStamp } from '../../lib/iso-time.ts'
import type { SplitBody } from '../../contract/operation.ts'
import { bodyErrorSteps } from '../../contract/validation/validate-in-slices.ts'
import { inSlices } from '../../lib/slices.ts'
import type { Logger } from '../../log/logger.ts'

export type { Answer, Violation } from '../../answer/answer.ts'

export type ResponseValidation = 'strict' | 'warn' | 'off'

export interface ResponseCheck {
  mode: ResponseValidation
  logger: Logger
  now: () => Date
}

/**
 * Checks an answer against the document before it leaves. In strict mode a violation becomes the
 * documented 500 (the mock has a bug, and the client must not trust the body); warn only logs.
 */
export function checkedAnswer(answer: Answer, validate: ValidateFunction | undefined, path: string, check: ResponseCheck): Answer {
  if (check.mode === 'off') return answer
  return answerChecked(answer, violationsOf(answer, validate), path, check)
}

/**
 * `checkedAnswer` for a large success (a handler's `SlicedJson`): the object with its records
 * emptied, then each record, checked in slices between turns of the event loop (docs/behaviour.md
 * §6), to the same verdict. A problem's `schemaPath` is then the record's schema's own.
 */
export async function checkedAnswerInSlices(answer: Answer, validate: ValidateFunction | undefined, split: SplitBody | undefined, path: string, check: ResponseCheck): Promise<Answer> {
  const body = answer.body
  if (check.mode === 'off' || !validate || !split || body === null || typeof body !== 'object' || Array.isArray(body)) return checkedAnswer(answer, validate, path, check)
  const errors = await inSlices(bodyErrorSteps(validate, split, body as Record<string, unknown>))
  return answerChecked(answer, errors.map(violationOf), path, check)
}

/** The answer as the check leaves it, given what it found wrong. */
function answerChecked(answer: Answer, violations: Violation[], path: string, check: ResponseCheck): Answer {
  if (violations.length === 0) return answer
  check.logger.error('response failed contract validation', { path, status: answer.status, violations })
  if (check.mode === 'warn') return { ...answer, violations }
  return {
    violations,
    status: 500,
    body: {
      statusCode: 500,
      timestamp: isoStamp(check.now().getTime()),
      path,
      message: 'Response failed contract validation',
      error: 'Internal Server Error',
      ctx: { violations },
    },
  }
}

/**
 * Answers made once with their JSON and answered again (a handler's `Serialized`: a subscriber's
 * version, a list page), each with the check that passed it. An answer is never changed once
 * made, so the same object passes the same check again; each answer made anew is checked.
 */
const passed = new WeakMap<object, ValidateFunction>()

function violationsOf(answer: Answer, validate: ValidateFunction | undefined): Violation[] {
  if (!validate) return [{ message: `status ${answer.status} is not documented for this operation` }]
  const { body } = answer
  const kept = answer.text !== undefined && typeof body === 'object' && body !== null
  if (kept && passed.get(body) === validate) return []
  if (!validate(body)) return (validate.errors ?? []).map(violationOf)
  if (kept) passed.set(body, validate)
  return []
}

const violationOf = (e: ErrorObject): Violation => ({ instancePath: e.instancePath, schemaPath: e.schemaPath, message: e.message ?? e.keyword })
