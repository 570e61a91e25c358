import type { RateLimitHeaders, RateLimitPort } from './rate-limit-port.ts'
import { Lru } from '../../lib/lru.ts'
import { ApiError } from '../../answer/api-error.ts'
import type { PendingTime } from '../../clock/tenant-clocks.ts'
import type { MaybePromise } from '../../lib/maybe-promise.ts'

export interface RateLimit {
  /** Requests allowed per window. */
  limit: number
  windowSeconds: number
}

/** The message of a 429, as the live service sends it. */
export const RATE_LIMITED = 'API rate limit exceeded'

export const DEFAULT_RATE_LIMIT: RateLimit = { limit: 100, windowSeconds: 1 }
/** Buckets kept at most; the oldest idle one goes first. Tenants are bounded, this is too. */
const MAX_BUCKETS = 10_000

interface Bucket {
  tokens: number
  updatedAt: number
}

/** The live service's throttler category of each operation: set-primary's controller names none (docs/behaviour.md §1.5). */
const CATEGORIES: Readonly<Record<string, string>> = { setPrimaryIntegration: 'global' }
const DEFAULT_CATEGORY = 'configuration'

/**
 * The sizes of a tenant's token bucket and the answer to a call once its token is taken or
 * refused: what every adapter of the rate-limit port answers alike. It refuses calls (429) only
 * when `enforce` is set, i.e. a limit was configured; otherwise the headers still tell the truth.
 */
export class BucketRules {
  /** Tokens a full bucket holds. */
  readonly burst: number
  /** Tokens given back per second. */
  readonly perSecond: number
  private readonly limitText: string
  private readonly policies = new Map<string, string>()

  constructor(
    private readonly rate: RateLimit,
    private readonly enforce: boolean,
  ) {
    this.burst = Math.ceil((rate.limit * 11) / 10) // not `* 1.1`: 100 * 1.1 is 110.00000000000001
    this.perSecond = rate.limit / rate.windowSeconds
    this.limitText = String(rate.limit)
  }

  /** The headers of a call that left `tokens` in the bucket, `allowed` or not; throws the 429 when enforced and refused. */
  answer(tokens: number, allowed: boolean, operationId: string): RateLimitHeaders {
    // The burst lets a bucket hold more than the limit; the header never says more than the limit.
    const remaining = Math.min(this.rate.limit, Math.floor(tokens))
    const untilAccepted = Math.max(1, Math.ceil((1 - tokens) / this.perSecond))
    const headers = {
      'RateLimit-Limit': this.limitText,
      'RateLimit-Remaining': String(remaining),
      'RateLimit-Reset': String(allowed ? Math.ceil((this.burst - tokens) / this.perSecond) : untilAccepted),
      'RateLimit-Policy': this.policy(CATEGORIES[operationId] ?? DEFAULT_CATEGORY),
    }
    if (allowed || !this.enforce) return headers
    throw new ApiError(429, 'RATE_LIMITED', RATE_LIMITED, { headers: { ...headers, 'Retry-After': headers['RateLimit-Reset'] } })
  }

  private policy(category: string): string {
    let policy = this.policies.get(category)
    if (policy === undefined) {
      const { limit, windowSeconds } = this.rate
      policy = `${limit};w=${windowSeconds};burst=${this.burst};comment="token bucket";category="${category}";cost="single";serviceLevel="mock"`
      this.policies.set(category, policy)
    }
    return policy
  }
}

/** A token bucket per tenant, in this process's memory, always counted so the `RateLimit-*` headers tell the truth. */
export class RateLimiter implements RateLimitPort {
  private readonly buckets = new Lru<Bucket>(MAX_BUCKETS)
  private readonly rules: BucketRules

  constructor(rate: RateLimit, enforce: boolean) {
    this.rules = new BucketRules(rate, enforce)
  }

  /** Takes one token for `tenant`; the headers to send, or a 429 to throw when enforced (to reject with, for a time on its way). */
  take(tenant: string, now: number, operationId: string): RateLimitHeaders
  take(tenant: string, now: number | PendingTime, operationId: string): MaybePromise<RateLimitHeaders>
  take(tenant: string, now: number | PendingTime, operationId: string): MaybePromise<RateLimitHeaders> {
    if (typeof now !== 'number') return now.ms.then((ms) => this.take(tenant, ms, operationId))
    const bucket = this.refilled(tenant, now)
    const allowed = bucket.tokens >= 1
    if (allowed) bucket.tokens -= 1
    return this.rules.answer(bucket.tokens, allowed, operationId)
  }

  refill(tenant: string): void {
    this.buckets.delete(tenant)
  }

  private refilled(tenant: string, now: number): Bucket {
    const { burst, perSecond } = this.rules
    const bucket = this.buckets.remember(tenant, () => ({ tokens: burst, updatedAt: now }))
    bucket.tokens = Math.min(burst, bucket.tokens + ((now - bucket.updatedAt) / 1000) * perSecond)
    bucket.updatedAt = now
    return bucket
  }
}

/** `100/1` → 100 requests per 1 second. */
export function parseRateLimit(text: string): RateLimit | undefined {
  const match = /^(\d+)\/(\d+(?:\.\d+)?)$/.exec(text.trim())
  if (!match) return undefined
  const limit = Number(match[1])
  const windowSeconds = Number(match[2])
  return limit >= 1 && windowSeconds > 0 ? { limit, windowSeconds } : undefined
}
