import type { TenantClocks } from '../policies/clock/tenant-clocks.ts'
import type { Idempotency } from '../policies/idempotency/idempotency.ts'
import type { JournalPort } from '../journal/journal-port.ts'
import type { FaultRules } from '../policies/faults/fault-rules.ts'
import type { DelayedCalls } from '../policies/faults/delayed-calls.ts'
import type { RateLimitPort } from '../policies/rate-limit/rate-limit-port.ts'
import type { Store } from '../store/store.ts'
import type { ResponseCheck } from './answers/response-check.ts'

/**
 * What every call of either plane reads: the store, the accepted keys, the tenants' clocks and how
 * answers are checked. `now` is the starting clock: it stamps an answer before its tenant is known.
 */
export interface CoreState extends ResponseCheck {
  store: Store
  /** Each tenant's time (docs/behaviour.md §8), read once a call knows its tenant. */
  clocks: Pick<TenantClocks, 'now' | 'read'>
  /** Strict mode's keys; undefined in open mode, where any non-empty key is a tenant. */
  apiKeys: ReadonlySet<string> | undefined
  /** Told of each answer of the API with its tenant's key, to notice a client retrying a 503 or 429 (log/retry-hint.ts). */
  retries?: { answered(key: string, call: string, status: number): void }
}

/** What a call of the API passes through besides the store (docs/behaviour.md §1.3, §4, §5). */
export interface CallPolicies {
  idempotency: Idempotency
  journal: JournalPort
  rateLimiter: RateLimitPort
  faults: FaultRules
  /** The calls each tenant has waiting out a delay (docs/behaviour.md §6). */
  delayed: DelayedCalls
}

/**
 * Which side of the mock an operation belongs to. The API's calls open their tenant and pass
 * through the policies; the control plane's (the admin API) do neither: they are not calls of the
 * tenant, so they are not limited, replayed, faulted nor journaled, and looking never makes the
 * store hold a tenant (docs/behaviour.md §3). The API reads forms and other media types as the
 * live service does; the control plane takes JSON only (415) (docs/behaviour.md §1.3).
 */
export type Plane = ApiPlane | ControlPlane

export interface ApiPlane {
  name: 'api'
  policies: CallPolicies
  /** Wrap successful answers as `{"data": …}`, as the live service does (docs/behaviour.md §1.1). */
  envelope: boolean
}

export interface ControlPlane {
  name: 'control'
  /** Every operation needs an accepted key, those the document leaves open included (with --api-key, docs/behaviour.md §6). */
  keyRequired?: boolean
}

export const CONTROL_PLANE: ControlPlane = { name: 'control' }
