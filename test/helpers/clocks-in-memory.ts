import type { KeptClock } from '../../src/clock/clock-setting.ts'
import type { ClocksPort } from '../../src/store/store.ts'

/** The store's clocks alone, in a map (as the in-memory store keeps them), for tests of the clock's rules. */
export function clocksInMemory(saved: Iterable<[string, KeptClock]> = []): ClocksPort & { held: Map<string, KeptClock> } {
  const held = new Map(saved)
  return {
    held,
    clockOf: (tenant) => held.get(tenant),
    async keepClock(tenant, clock) {
      if (clock === undefined) held.delete(tenant)
      else held.set(tenant, clock)
    },
    clearClocks: async () => held.clear(),
    heldClocks: () => [...held],
  }
}
