import type { ValidateFunction } from 'ajv/dist/2020.js'
import type { Answer, Violation } from '../answer/answer.ts'
import { isoStamp } from '../lib/iso-time.ts'
import type { Logger } from '../log/logger.ts'

export type { Answer, Violation } from '../answer/answer.ts'

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
  const violations = violationsOf(answer, validate)
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

function violationsOf(answer: Answer, validate: ValidateFunction | undefined): Violation[] {
  if (!validate) return [{ message: `status ${answer.status} is not documented for this operation` }]
  if (validate(answer.body)) return []
  return (validate.errors ?? []).map((e) => ({ instancePath: e.instancePath, schemaPath: e.schemaPath, message: e.message ?? e.keyword }))
}
