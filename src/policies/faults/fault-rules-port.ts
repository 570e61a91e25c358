import type { MaybePromise } from '../../lib/maybe-promise.ts'
import type { FaultRuleRequest } from './presets.ts'

type AdminSchemas = import('../../contract/generated/admin-types.ts').components['schemas']
export type FaultRule = AdminSchemas['FaultRule']

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

/**
 * The port of the tenants' fault rules: kept per tenant, applied oldest first, their counters
 * (`matched`, `applied`, `times`, `everyNth`) counted by `apply`. `FaultRules` is the in-memory
 * adapter.
 */
export interface FaultRulesPort {
  /** The estimate of the rules held in this process, over every tenant and for one (none when they are kept elsewhere). */
  readonly heldBytes?: number
  bytesOf?(tenant: string): number
  /** The rule as kept, with its id; undefined at the bound of rules per tenant. */
  add(tenant: string, request: FaultRuleRequest): MaybePromise<FaultRule | undefined>
  list(tenant: string): MaybePromise<FaultRule[]>
  remove(tenant: string, id: string): MaybePromise<FaultRule | undefined>
  /** How many rules were removed. */
  clear(tenant: string): MaybePromise<number>
  /** Counts the call against every matching rule and sums up their effect; undefined: none. */
  apply(tenant: string, call: FaultCall): MaybePromise<FaultEffect | undefined>
}
