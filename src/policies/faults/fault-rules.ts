import { journalName } from '../../contract/novu/operation-names.ts'
import { isDeepSubset } from '../../lib/json/deep-subset.ts'
import type { MaybePromise } from '../../lib/maybe-promise.ts'
import { ruleBytes, type FaultsChange, type FaultsPort, type TenantFaults } from '../../store/tenant-parts/tenant-faults.ts'
import { PRESETS, type FaultRuleRequest } from './presets.ts'

type AdminSchemas = import('../../contract/generated/admin-types.ts').components['schemas']
export type FaultRule = AdminSchemas['FaultRule']
type Latency = NonNullable<FaultRule['latencyMs']>

export interface FaultCall {
  operationId: string
  method: string
  path: string
  body: unknown
  /** Whether the operation documents a status: a rule answering with another passes it by. */
  documents(status: number): boolean
}

/** What the matching rules do to one call. */
export interface FaultEffect {
  latencyMs: number
  drop: boolean
  respond?: NonNullable<FaultRule['respond']> & { ruleId: string }
}

/** Rules kept per tenant at most; like every buffer that grows with traffic, bounded. */
export const MAX_RULES = 100
/** Bytes of a tenant's rules at most, as their JSON lists them (docs/behaviour.md §6). */
export const MAX_RULE_BYTES = 2 ** 20

/**
 * The tenants' fault rules (docs/behaviour.md §6), applied oldest first: functions over each
 * tenant's rules as the store keeps them in its value (FaultsPort), with no store of their own.
 * Every change, a call counted against its rules included, is a change of the tenant's value, so
 * that the counters (`matched`, `applied`, `times`, `everyNth`) count every instance's calls
 * exactly over a shared store. A call that matches no rule held changes nothing.
 */
export class FaultRules {
  constructor(
    private readonly store: FaultsPort,
    private readonly random: () => number = Math.random,
  ) {}

  async list(tenant: string): Promise<FaultRule[]> {
    return [...((await this.store.faultRulesOf(tenant))?.rules ?? [])]
  }

  /** The rule as kept, with its id; or why it was refused (a bound of the tenant's rules). */
  async add(tenant: string, request: FaultRuleRequest): Promise<FaultRule | { refused: string }> {
    return this.store.changeFaultRules(tenant, (faults) => added(faults, request))
  }

  async remove(tenant: string, id: string): Promise<FaultRule | undefined> {
    return this.store.changeFaultRules(tenant, (faults) => removed(faults, id))
  }

  /** How many rules were removed; the next rule added is `fault-1` again. */
  async clear(tenant: string): Promise<number> {
    return this.store.changeFaultRules(tenant, (faults) => ({ next: undefined, result: faults?.rules.length ?? 0 }))
  }

  /**
   * Counts the call against every matching rule and sums up their effect; undefined: none. The
   * rules held are current once the call's own sync is in (`ofCall`): a call that matches none of
   * them costs nothing more, and answers at once when they are held in this process alone.
   */
  apply(tenant: string, call: FaultCall): MaybePromise<FaultEffect | undefined> {
    const held = this.store.faultRulesOf(tenant, true)
    return held instanceof Promise ? held.then((faults) => this.counted(tenant, faults, call)) : this.counted(tenant, held, call)
  }

  private counted(tenant: string, held: TenantFaults | undefined, call: FaultCall): MaybePromise<FaultEffect | undefined> {
    if (held === undefined || !held.rules.some((rule) => matches(rule, call))) return undefined
    const applied = this.store.changeFaultRules(tenant, (faults) => counted(faults, call))
    return applied instanceof Promise ? applied.then((rules) => effectOf(rules, this.random)) : effectOf(applied, this.random)
  }
}

/** The rules with one more, numbered after the last; or unchanged, at either bound of docs/behaviour.md §6. */
export function added(faults: TenantFaults | undefined, request: FaultRuleRequest): FaultsChange<FaultRule | { refused: string }> {
  const rules = faults?.rules ?? []
  if (rules.reduce((sum, rule) => sum + ruleBytes(rule), ruleBytes(request)) > MAX_RULE_BYTES) {
    return { next: faults, result: { refused: `at most ${MAX_RULE_BYTES} bytes (1 MiB) of fault rules per tenant` } }
  }
  if (rules.length >= MAX_RULES) return { next: faults, result: { refused: `at most ${MAX_RULES} fault rules per tenant` } }
  const lastId = (faults?.lastId ?? 0) + 1
  const rule = newRule(`fault-${lastId}`, request)
  return { next: { lastId, rules: [...rules, rule] }, result: rule }
}

/** The rules without the one of that id; unchanged when there is none. */
export function removed(faults: TenantFaults | undefined, id: string): FaultsChange<FaultRule | undefined> {
  const rule = faults?.rules.find((each) => each.id === id)
  if (!faults || !rule) return { next: faults, result: undefined }
  return { next: { lastId: faults.lastId, rules: faults.rules.filter((each) => each !== rule) }, result: rule }
}

/**
 * The call counted against every rule it matches, oldest first: `matched` counts it, and a rule
 * applies unless `everyNth` passes it by; `times` counts down the applications left, and a rule
 * whose last one this was goes. Answers the rules applied, as they were counted.
 */
export function counted(faults: TenantFaults | undefined, call: FaultCall): FaultsChange<FaultRule[]> {
  if (!faults?.rules.some((rule) => matches(rule, call))) return { next: faults, result: [] }
  const applied: FaultRule[] = []
  const rules: FaultRule[] = []
  for (const rule of faults.rules) {
    if (!matches(rule, call)) {
      rules.push(rule)
      continue
    }
    const next = { ...rule, matched: rule.matched + 1 }
    if (next.everyNth === undefined || next.matched % next.everyNth === 0) {
      next.applied++
      applied.push(next)
      if (next.times !== undefined && --next.times === 0) continue
    }
    rules.push(next)
  }
  return { next: { lastId: faults.lastId, rules }, result: applied }
}

/** A rule as kept and listed: its preset's fields, the request's over them, its counters at 0. */
export function newRule(id: string, request: FaultRuleRequest): FaultRule {
  const { preset, ...own } = request
  return { id, ...(preset ? { preset, ...PRESETS[preset] } : {}), ...own, match: own.match ?? {}, matched: 0, applied: 0 }
}

/** Whether the call is one the rule is about (its counters aside). */
export function matches({ match, respond }: FaultRule, call: FaultCall): boolean {
  return (
    (respond === undefined || call.documents(respond.status)) &&
    (match.operationId === undefined || journalName(match.operationId) === call.operationId) &&
    (match.method === undefined || match.method === call.method) &&
    (match.path === undefined || match.path === call.path) &&
    (match.bodyMatches === undefined || isDeepSubset(match.bodyMatches, call.body))
  )
}

/** What the rules applied to a call do, in the order applied: latencies add up, the first `respond` wins; undefined: none applied. */
export function effectOf(applied: readonly FaultRule[], random: () => number): FaultEffect | undefined {
  if (applied.length === 0) return undefined
  const effect: FaultEffect = { latencyMs: 0, drop: false }
  for (const rule of applied) {
    effect.latencyMs += latencyOf(rule.latencyMs, random)
    effect.drop ||= rule.drop === true
    if (rule.respond && !effect.respond) effect.respond = { ...rule.respond, ruleId: rule.id }
  }
  return effect
}

function latencyOf(latency: Latency | undefined, random: () => number): number {
  if (latency === undefined) return 0
  if (typeof latency === 'number') return latency
  const [low, high] = latency.min <= latency.max ? [latency.min, latency.max] : [latency.max, latency.min]
  return Math.round(low + random() * (high - low))
}
