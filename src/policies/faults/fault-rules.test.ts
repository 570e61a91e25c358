import { describe, expect, it } from 'vitest'
import type { TenantFaults } from '../../store/tenant-parts/tenant-faults.ts'
import { added, counted, FaultRules, MAX_RULES, removed, type FaultCall } from './fault-rules.ts'

/** The rules as functions over a tenant's value: each change answers the next value, the value before it untouched. */

const call = (operationId = 'getSubscriber'): FaultCall => ({ operationId, method: 'GET', path: '/v2/subscribers/x', body: {}, documents: () => true })

/** The value after adding each request in turn. */
function valueOf(...requests: Parameters<typeof added>[1][]): TenantFaults | undefined {
  let faults: TenantFaults | undefined
  for (const request of requests) faults = added(faults, request).next
  return faults
}

/** A store of one tenant's value, as the store keeps it in memory. */
function oneTenant() {
  let held: TenantFaults | undefined
  return new FaultRules({
    faultRulesOf: () => held,
    changeFaultRules(_tenant, change) {
      const { next, result } = change(held)
      held = next
      return result
    },
  })
}

describe('fault rules over a tenant’s value', () => {
  it('numbers rules after the last added, and counts from fault-1 again once cleared', async () => {
    const rules = oneTenant()
    expect(await rules.add('t', { latencyMs: 1 })).toMatchObject({ id: 'fault-1' })
    const second = await rules.add('t', { latencyMs: 2 })
    expect(second).toMatchObject({ id: 'fault-2' })
    expect(await rules.remove('t', 'fault-2')).toEqual(second)
    expect(await rules.add('t', { latencyMs: 3 })).toMatchObject({ id: 'fault-3' })
    expect(await rules.clear('t')).toBe(2)
    expect(await rules.add('t', { latencyMs: 4 })).toMatchObject({ id: 'fault-1' })
  })

  it('counts a call against the rules it matches: `everyNth` passes calls by, `times` counts down what applies, the last removes the rule', () => {
    let faults = valueOf({ drop: true, everyNth: 2, times: 2 }, { latencyMs: 5, match: { operationId: 'markMessagesAs' } })
    const before = faults
    const applied: number[] = []
    for (let i = 0; i < 3; i++) {
      const change = counted(faults, call())
      applied.push(change.result.length)
      faults = change.next
    }
    expect(applied).toEqual([0, 1, 0])
    expect(faults!.rules[0]).toMatchObject({ matched: 3, applied: 1, times: 1 })
    expect(before!.rules[0]).toMatchObject({ matched: 0, applied: 0, times: 2 })
    faults = counted(faults, call()).next
    expect(faults!.rules.map((rule) => rule.id)).toEqual(['fault-2'])
  })

  it('leaves the value as it is for a call that matches no rule, an unknown id, and a rule past either bound', () => {
    const faults = valueOf({ latencyMs: 1, match: { operationId: 'markMessagesAs' } })
    expect(counted(faults, call()).next).toBe(faults)
    expect(removed(faults, 'fault-9').next).toBe(faults)
    const full = valueOf(...Array.from({ length: MAX_RULES }, () => ({ latencyMs: 1 })))
    const refused = added(full, { latencyMs: 1 })
    expect(refused).toEqual({ next: full, result: { refused: `at most ${MAX_RULES} fault rules per tenant` } })
    const large = added(undefined, { latencyMs: 1, match: { bodyMatches: { blob: 'x'.repeat(2 ** 20) } } })
    expect(large.next).toBeUndefined()
    expect(large.result).toEqual({ refused: 'at most 1048576 bytes (1 MiB) of fault rules per tenant' })
  })

  it('sums the effect of the rules a call applies: latencies add up, the first respond wins', async () => {
    const rules = oneTenant()
    await rules.add('t', { latencyMs: 2 })
    const first = await rules.add('t', { respond: { status: 503 } })
    await rules.add('t', { latencyMs: 3, respond: { status: 404 } })
    expect(rules.apply('t', call())).toEqual({ latencyMs: 5, drop: false, respond: { status: 503, ruleId: (first as { id: string }).id } })
  })
})
