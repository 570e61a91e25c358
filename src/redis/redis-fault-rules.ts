import { randomUUID } from 'node:crypto'
import type { RedisClient } from './redis-connection.ts'
import { GLOBAL_KEYS, tenantKeys } from './redis-keys.ts'
import type { SeenVersions } from '../policies/faults/seen-versions.ts'
import { reached, StoreWriteFailed } from '../store/store.ts'
import type { FaultCall, FaultEffect, FaultRule, FaultRulesPort } from '../policies/faults/fault-rules-port.ts'
import { effectOf, matches, MAX_RULES, newRule } from '../policies/faults/fault-rules.ts'
import type { FaultRuleRequest } from '../policies/faults/presets.ts'
import { ADD, APPLY, CLEAR, LIST, REMOVE } from './redis-fault-scripts.ts'
import { defineScripts } from './redis-define-scripts.ts'

const IDS_KEY = GLOBAL_KEYS.faultIds
/** A tenant's fault rules: the rules' hash and their order. */
const keysOf = (tenant: string): [string, string] => {
  const { faults, faultOrder } = tenantKeys(tenant)
  return [faults, faultOrder]
}
/** Tenants whose rules an instance keeps in memory at most; the one whose rules it learnt first goes first. */
const MAX_HELD = 10_000
/** Tries of a call whose tenant's rules keep changing meanwhile, before it is answered 503. */
const MAX_TRIES = 10

/** A rule as the scripts read it: its JSON as added, matched, applied, times left or ''. */
type KeptRule = [string, string, string, string]
type ApplyAnswer = ['rules', string, ...string[]] | ['counted', string, string[], string[]]

/** The scripts, as ioredis defines them (EVALSHA, loaded again after a restart of Redis). */
interface Scripts {
  novuFaultAdd(hash: string, order: string, id: string, rule: string, max: number, version: string, times: string, everyNth: string): Promise<number>
  novuFaultList(hash: string, order: string): Promise<KeptRule[]>
  novuFaultRemove(hash: string, order: string, id: string, version: string): Promise<KeptRule | []>
  novuFaultClear(hash: string, order: string): Promise<number>
  novuFaultApply(hash: string, order: string, held: string, version: string, ...ids: string[]): Promise<ApplyAnswer>
}

/** A tenant's rules as an instance last saw them: matched here, counted in Redis if that version still stands. */
interface Held {
  version: string
  rules: FaultRule[]
}
const NO_RULES: Held = { version: '', rules: [] }

/**
 * The tenants' fault rules in Redis, shared by every instance on it: added through one, they
 * apply on all, and `apply` counts each call in one script, so `times` and `everyNth` count
 * calls over every instance. Each instance matches calls against the rules it holds in memory;
 * the script counts them only if the rules' version is still the one matched against, and
 * otherwise answers the rules as they now stand. A call costs one round trip (two when the
 * tenant's rules changed since its last call), or none when it matches no rule held and the
 * version its token was taken with is the one held (`seen`); a Redis failure rejects (StoreWriteFailed: 503).
 */
export class RedisFaultRules implements FaultRulesPort {
  private readonly scripts: Scripts
  /** Tenants with rules only: one without is held as NO_RULES, which costs nothing. */
  private readonly held = new Map<string, Held>()
  private readonly instance = randomUUID()
  private changes = 0

  constructor(
    private readonly client: RedisClient,
    private readonly random: () => number = Math.random,
    /** The version each call's token was taken with (RedisRateLimiter), absent where no limiter reads it. */
    private readonly seen?: SeenVersions,
  ) {
    this.scripts = defineScripts<Scripts>(client, {
      novuFaultAdd: { numberOfKeys: 2, lua: ADD },
      novuFaultList: { numberOfKeys: 2, lua: LIST },
      novuFaultRemove: { numberOfKeys: 2, lua: REMOVE },
      novuFaultClear: { numberOfKeys: 2, lua: CLEAR },
      novuFaultApply: { numberOfKeys: 2, lua: APPLY },
    })
  }

  async add(tenant: string, request: FaultRuleRequest): Promise<FaultRule | undefined> {
    const rule = newRule(`fault-${await reached(this.client.incr(IDS_KEY))}`, request)
    const { times, everyNth } = rule
    const added = await reached(this.scripts.novuFaultAdd(...keysOf(tenant), rule.id, JSON.stringify(rule), MAX_RULES, this.nextVersion(), optional(times), optional(everyNth)))
    return added === 1 ? rule : undefined
  }

  async list(tenant: string): Promise<FaultRule[]> {
    return (await reached(this.scripts.novuFaultList(...keysOf(tenant)))).map(ruleOf)
  }

  async remove(tenant: string, id: string): Promise<FaultRule | undefined> {
    const removed = await reached(this.scripts.novuFaultRemove(...keysOf(tenant), id, this.nextVersion()))
    return removed.length === 0 ? undefined : ruleOf(removed)
  }

  async clear(tenant: string): Promise<number> {
    return reached(this.scripts.novuFaultClear(...keysOf(tenant)))
  }

  async apply(tenant: string, call: FaultCall): Promise<FaultEffect | undefined> {
    let held = this.held.get(tenant) ?? NO_RULES
    for (let tries = 0; tries < MAX_TRIES; tries++) {
      const matching = held.rules.filter((rule) => matches(rule, call))
      // Rules just read, or of the version the call's token was taken with, that it does not match: nothing to count.
      if (matching.length === 0 && (tries > 0 || this.seen?.get(tenant) === held.version)) return undefined
      const answer = await reached(this.scripts.novuFaultApply(...keysOf(tenant), held.version, this.nextVersion(), ...matching.map((rule) => rule.id)))
      if (answer[0] === 'rules') {
        const [, version, ...rules] = answer
        held = { version, rules: rules.map((json) => JSON.parse(json) as FaultRule) }
        this.hold(tenant, held)
        continue
      }
      const [, version, applied, removed] = answer
      if (removed.length > 0) this.hold(tenant, { version, rules: held.rules.filter((rule) => !removed.includes(rule.id)) })
      return effectOf(matching.filter((rule) => applied.includes(rule.id)), this.random)
    }
    throw new StoreWriteFailed(new Error(`the fault rules of a tenant changed ${MAX_TRIES} times during one call`))
  }

  private hold(tenant: string, held: Held): void {
    this.held.delete(tenant)
    if (held.rules.length === 0) return
    this.held.set(tenant, held)
    if (this.held.size > MAX_HELD) this.held.delete(this.held.keys().next().value!)
  }

  /** A version no instance has used: this instance's id and a count. */
  private nextVersion(): string {
    return `${this.instance}.${++this.changes}`
  }
}


const optional = (value: number | undefined): string => (value === undefined ? '' : String(value))

/** The rule as listed: as added, with its counters as they stand (the keys keep their order). */
function ruleOf([json, matched, applied, timesLeft]: KeptRule): FaultRule {
  const rule = JSON.parse(json) as FaultRule
  rule.matched = Number(matched)
  rule.applied = Number(applied)
  if (timesLeft !== '') rule.times = Number(timesLeft)
  return rule
}
