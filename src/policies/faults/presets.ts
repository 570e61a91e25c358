import { RETRY_LATER } from '../../answer/api-error.ts'
import { IDEMPOTENCY_LINK } from '../idempotency/key-rules.ts'

type AdminSchemas = import('../../contract/generated/admin-types.ts').components['schemas']
export type FaultRuleRequest = AdminSchemas['FaultRuleRequest']
export type Preset = NonNullable<FaultRuleRequest['preset']>

/** The cases users test most, as rules; fields sent beside a preset override it. */
export const PRESETS: Record<Preset, Omit<FaultRuleRequest, 'preset'>> = {
  // Without a body or headers, the 429 is the live service's ErrorDto, its wait that of the call's bucket.
  'rate-limited': { respond: { status: 429 } },
  unavailable: { respond: { status: 503, body: RETRY_LATER, headers: { 'Retry-After': '1' } } },
  slow: { latencyMs: { min: 300, max: 1500 } },
  flaky: { everyNth: 3, respond: { status: 500 } },
  // Without a body, the 409 carries the service's message for the call's own idempotency key.
  'idempotency-in-progress': { respond: { status: 409, headers: { 'Retry-After': '1', ...IDEMPOTENCY_LINK } } },
}
