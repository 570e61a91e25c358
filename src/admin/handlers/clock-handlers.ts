import { validationFailed } from '../../answer/api-error.ts'
import type { ClockRefused, TenantClocks } from '../../policies/clock/tenant-clocks.ts'
import { FIRST_INSTANT, LAST_INSTANT, type ClockView } from '../../clock/clock-setting.ts'
import type { OperationContext } from '../../resources/operation-context.ts'

type Schemas = import('../../contract/generated/admin-types.ts').components['schemas']

/** Why a change of the clock is refused, by the field that asked for it (docs/behaviour.md §8). */
const REFUSALS = {
  now: {
    range: `now must be within ${FIRST_INSTANT} and ${LAST_INSTANT}`,
    running: `now must be a year or more before ${LAST_INSTANT} for a running clock (frozen: false)`,
  },
  ms: {
    range: `ms must keep the clock within ${FIRST_INSTANT} and ${LAST_INSTANT}`,
    running: `ms must keep a running clock a year or more before ${LAST_INSTANT}`,
  },
}

/** The tenant's clock under `/__admin/clock` (docs/behaviour.md §8); the document checks the shapes, these the values. */
export function clockHandlers(clocks: TenantClocks) {
  return {
    getClock: ({ tenant }: OperationContext<unknown>) => clocks.get(tenant.key),

    setClock: async ({ tenant, input }: OperationContext<{ body: Schemas['ClockRequest'] }>) => {
      const { now, frozen = true } = input.body
      // The document's date-time lets through what no Date holds (a leap second, 23:59:60).
      const at = Date.parse(now)
      if (!Number.isFinite(at)) throw validationFailed({ now: { messages: ['now must be a date and time a clock can show'], value: now } })
      return changed(await clocks.set(tenant.key, at, frozen), 'now', now)
    },

    advanceClock: async ({ tenant, input }: OperationContext<{ body: Schemas['ClockAdvance'] }>) =>
      changed(await clocks.advance(tenant.key, input.body.ms), 'ms', input.body.ms),

    useRealTime: ({ tenant }: OperationContext<unknown>) => clocks.useRealTime(tenant.key),
  }
}

/** The clock as it now stands, or the 422 naming the field whose value would have taken it out of its range. */
function changed(outcome: ClockView | ClockRefused, field: keyof typeof REFUSALS, value: unknown): ClockView {
  if ('refused' in outcome) throw validationFailed({ [field]: { messages: [REFUSALS[field][outcome.refused]], value } })
  return outcome
}
