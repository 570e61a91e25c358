import { validationFailed } from '../answer/api-error.ts'
import type { TenantClocks } from '../clock/tenant-clocks.ts'
import type { OperationContext } from '../resources/operation-context.ts'

type Schemas = import('../contract/generated/admin-types.ts').components['schemas']

/** The tenant's clock under `/__admin/clock` (docs/behaviour.md §8); the document checks the shapes, these the values. */
export function clockHandlers(clocks: TenantClocks) {
  return {
    getClock: ({ tenant }: OperationContext<unknown>) => clocks.get(tenant.key),

    setClock: ({ tenant, input }: OperationContext<{ body: Schemas['ClockRequest'] }>) => {
      const { now, frozen = true } = input.body
      // The document's date-time lets through what no Date holds (a leap second, 23:59:60).
      const at = Date.parse(now)
      if (!Number.isFinite(at)) throw validationFailed({ now: { messages: ['now must be a date and time a clock can show'], value: now } })
      return clocks.set(tenant.key, at, frozen)
    },

    advanceClock: async ({ tenant, input }: OperationContext<{ body: Schemas['ClockAdvance'] }>) => {
      const advanced = await clocks.advance(tenant.key, input.body.ms)
      if (!advanced) throw validationFailed({ ms: { messages: ['ms would move the clock past the last date it can show'], value: input.body.ms } })
      return advanced
    },

    useRealTime: ({ tenant }: OperationContext<unknown>) => clocks.useRealTime(tenant.key),
  }
}
