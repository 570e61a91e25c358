import type { MaybePromise } from '../../lib/maybe-promise.ts'

/** The `RateLimit-*` headers of one call, by name. */
export type RateLimitHeaders = Record<string, string>

/**
 * The port of the rate-limit buckets: one bucket per tenant, shared by every operation. `take`
 * counts one call and answers its headers, or throws (rejects with) the 429 when the limit is
 * enforced and spent. `RateLimiter` is the in-memory adapter.
 */
export interface RateLimitPort {
  take(tenant: string, now: number, operationId: string): MaybePromise<RateLimitHeaders>
  /** The tenant's bucket full again (a reset, a release, its clock gone back: docs/behaviour.md §8). */
  refill(tenant: string): MaybePromise<void>
}
