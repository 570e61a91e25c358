import type { MaybePromise } from '../../lib/maybe-promise.ts'
import type { PendingTime } from '../clock/tenant-clocks.ts'

/** The `RateLimit-*` headers of one call, by name. */
export type RateLimitHeaders = Record<string, string>

/**
 * The port of the rate-limit buckets: one bucket per tenant, shared by every operation. `take`
 * counts one call and answers its headers, or throws (rejects with) the 429 when the limit is
 * enforced and spent. `RateLimiter` is the in-memory adapter.
 */
export interface RateLimitPort {
  /**
   * `now` is the tenant's time (docs/behaviour.md §8), or that time still on its way from where
   * the clocks are kept: an adapter beside them reads it there rather than wait for it.
   */
  take(tenant: string, now: number | PendingTime, operationId: string): MaybePromise<RateLimitHeaders>
  /** The tenant's bucket full again (a reset, a release, its clock gone back: docs/behaviour.md §8). */
  refill(tenant: string): MaybePromise<void>
}
