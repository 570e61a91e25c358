import { journalName } from '../../contract/novu/operation-names.ts'
import { isDeepSubset } from '../../lib/deep-subset.ts'
import type { FaultCall, FaultEffect, FaultRule, FaultRulesPort } from './fault-rules-port.ts'
import { PRESETS, type FaultRuleRequest } from './presets.ts'
import { HEAP_BYTES_PER_JSON_CHAR } from '../../store/memory/held-bytes.ts'

type Latency = NonNullable<FaultRule['latencyMs']>

/** Rules kept per tenant at most; like every buffer that grows with traffic, bounded. */
export const MAX_RULES = 100
/** Bytes of a tenant's rules at most, as their JSON lists them (docs/behaviour.md §6). */
export const MAX_RULE_BYTES = 2 ** 20

/** A rule's size as its JSON lists it. */
export const ruleBytes = (rule: object): number => JSON.stringify(rule).length

/** The tenants' fault rules, applied oldest first. */
export class FaultRules implements FaultRulesPort {
  private readonly tenants = new Map<string, FaultRule[]>()
  /** Per tenant, the number of the last rule added, so a rule's id depends on its tenant's calls alone (docs/behaviour.md §8). */
  private readonly lastIds = new Map<string, number>()
  /** Per tenant, its rules' estimate in memory (the memory budget's, docs/behaviour.md §3); `heldBytes` their sum. */
  private readonly bytes = new Map<string, number>()
  heldBytes = 0
  /** Each rule's estimate as it was added: its counters change, what it was counted for does not. */
  private readonly sizes = new WeakMap<FaultRule, number>()

  constructor(private readonly random: () => number = Math.random) {}

  add(tenant: string, request: FaultRuleRequest): FaultRule | undefined {
    const rules = this.rulesOf(tenant)
    if (rules.length >= MAX_RULES) return undefined
    const id = (this.lastIds.get(tenant) ?? 0) + 1
    this.lastIds.set(tenant, id)
    const rule = newRule(`fault-${id}`, request)
    rules.push(rule)
    this.sizes.set(rule, ruleBytes(rule) * HEAP_BYTES_PER_JSON_CHAR)
    this.count(tenant, this.sizes.get(rule)!)
    return rule
  }

  /** The estimate of the tenant's rules in memory. */
  bytesOf(tenant: string): number {
    return this.bytes.get(tenant) ?? 0
  }

  private count(tenant: string, change: number): void {
    const bytes = this.bytesOf(tenant) + change
    this.heldBytes += change
    if (bytes > 0) this.bytes.set(tenant, bytes)
    else this.bytes.delete(tenant)
  }

  list(tenant: string): FaultRule[] {
    return [...(this.tenants.get(tenant) ?? [])]
  }

  remove(tenant: string, id: string): FaultRule | undefined {
    const rules = this.tenants.get(tenant) ?? []
    const at = rules.findIndex((rule) => rule.id === id)
    if (at === -1) return undefined
    const [removed] = rules.splice(at, 1)
    this.count(tenant, -(this.sizes.get(removed!) ?? 0))
    return removed
  }

  clear(tenant: string): number {
    const cleared = this.tenants.get(tenant)?.length ?? 0
    this.tenants.delete(tenant)
    this.lastIds.delete(tenant)
    this.count(tenant, -this.bytesOf(tenant))
    return cleared
  }

  /** Counts the call against every matching rule and sums up their effect; undefined: none. */
  apply(tenant: string, call: FaultCall): FaultEffect | undefined {
    const rules = this.tenants.get(tenant)
    if (!rules || rules.length === 0) return undefined
    const applied: FaultRule[] = []
    for (const rule of [...rules]) {
      if (!matches(rule, call)) continue
      rule.matched++
      if (rule.everyNth !== undefined && rule.matched % rule.everyNth !== 0) continue
      rule.applied++
      applied.push(rule)
      if (rule.times !== undefined && --rule.times === 0) this.remove(tenant, rule.id)
    }
    return effectOf(applied, this.random)
  }

  private rulesOf(tenant: string): FaultRule[] {
    let rules = this.tenants.get(tenant)
    if (!rules) this.tenants.set(tenant, (rules = []))
    return rules
  }
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

export type { FaultCall, FaultEffect, FaultRule } from './fault-rules-port.ts'
