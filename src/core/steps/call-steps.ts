import { checkAnswer, closeKeyedRecord, journal, noteRetries, serialize } from './answer-steps.ts'
import { readBodyOfAnyType, readJsonBody, readJsonBodyFirst } from './body-steps.ts'
import type { Step } from './call.ts'
import { applyFaultRules, replayKeyed } from './policy-steps.ts'
import { runRule, validate, validateInSlices } from './rule-steps.ts'
import { authenticate, limitRate, openTenant, readTenantTime } from './tenant-steps.ts'

/**
 * A call's steps: those `toAnswer` run in turn until one answers (or throws: its error is the
 * answer); then every one `afterAnswer` runs on that answer.
 */
export interface CallSteps {
  toAnswer: readonly Step[]
  afterAnswer: readonly Step[]
}

/** A call of the API, in the order of docs/behaviour.md §1.3. */
export const API_CALL: CallSteps = {
  toAnswer: [readJsonBodyFirst, authenticate, openTenant, limitRate, readBodyOfAnyType, replayKeyed, applyFaultRules, validate, runRule],
  afterAnswer: [checkAnswer, serialize, closeKeyedRecord, journal, noteRetries],
}

/**
 * A call of the control plane (the admin API): not a call of the tenant, so it is not limited,
 * replayed, faulted nor journaled, and never opens the tenant (docs/behaviour.md §3); JSON only.
 */
export const CONTROL_CALL: CallSteps = {
  toAnswer: [readJsonBodyFirst, authenticate, readTenantTime, readJsonBody, validateInSlices, runRule],
  afterAnswer: [checkAnswer, serialize],
}
