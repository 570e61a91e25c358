import { inSlices } from '../../lib/slices.ts'
import { overlaidSteps, rowsOfState } from '../memory/overlay.ts'
import { stateBytesSteps } from '../memory/held-bytes.ts'
import { LargerThanBudget } from '../upkeep/memory-budget.ts'
import type { SnapshotParts } from './snapshot-methods.ts'
import type { StateAdminPort } from '../store.ts'

export interface ImportParts extends Pick<SnapshotParts, 'memory' | 'holdForChange' | 'changing' | 'persist' | 'room'> {
  /** Bytes held for the tenants at most. */
  budget: number
  nextSeq: () => number
}

/** A tenant's records replaced by a state (StateAdminPort's importState): stored first, then applied. */
export function importStateMethod({ memory, holdForChange, changing, persist, room, budget, nextSeq }: ImportParts): StateAdminPort['importState'] {
  return async (tenant, state) => {
    // Measured before anything is made of it: a state larger than the whole budget is refused at once.
    const bytes = await inSlices(stateBytesSteps(state))
    if (bytes > budget) throw new LargerThanBudget('State', bytes, budget)
    await holdForChange(tenant)
    return changing(tenant, async () => {
      const seed = await memory.seedOf(tenant)
      // In slices: a large state leaves the other tenants' calls answered meanwhile.
      const rows = await inSlices(rowsOfState(seed, state, nextSeq))
      const next = await inSlices(overlaidSteps(seed, rows))
      room(tenant, memory.growthIf(tenant, { data: next }), 'State')
      await persist({ type: 'replace', tenant, rows })
      memory.apply(tenant, next)
    })
  }
}
