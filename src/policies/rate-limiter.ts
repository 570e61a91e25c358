import type { RateLimitPort } from './rate-limit-port.ts'
import { RecencyMap } from '../lib/recency-map.ts'
import { ApiError } from '../answer/api-error.ts'

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
 * A token bucket per tenant, always counted so the `RateLimit-*` headers tell the truth; it
 * refuses calls (429) only when `enforce` is set, i.e. a limit was configured.
 */
export class RateLimiter implements RateLimitPort {
  /** Least recently called first; the tenant calling again and again is not moved. */
  private readonly buckets = new RecencyMap<Bucket>()
  private readonly burst: number
  private readonly perSecond: number
  private readonly limit: number
  private readonly limitText: string
  private readonly policies = new Map<string, string>()

  constructor(
    private readonly rate: RateLimit,
    private readonly enforce: boolean,
  ) {
    this.burst = Math.ceil((rate.limit * 11) / 10) // not `* 1.1`: 100 * 1.1 is 110.00000000000001
    this.perSecond = rate.limit / rate.windowSeconds
    this.limit = rate.limit
    this.limitText = String(rate.limit)
  }

  /** Takes one token for `tenant`; the headers to send, or a 429 to throw when enforced. */
  take(tenant: string, now: number, operationId: string): Record<string, string> {
    const bucket = this.refilled(tenant, now)
    const allowed = bucket.tokens >= 1
    if (allowed) bucket.tokens -= 1
    // The burst lets a bucket hold more than the limit; the header never says more than the limit.
    const remaining = Math.min(this.limit, Math.floor(bucket.tokens))
    const untilAccepted = Math.max(1, Math.ceil((1 - bucket.tokens) / this.perSecond))
    const headers = {
      'RateLimit-Limit': this.limitText,
      'RateLimit-Remaining': String(remaining),
      'RateLimit-Reset': String(allowed ? Math.ceil((this.burst - bucket.tokens) / this.perSecond) : untilAccepted),
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

  private refilled(tenant: string, now: number): Bucket {
    const bucket = this.buckets.touch(tenant, () => ({ tokens: this.burst, updatedAt: now }))
    bucket.tokens = Math.min(this.burst, bucket.tokens + ((now - bucket.updatedAt) / 1000) * this.perSecond)
    bucket.updatedAt = now
    if (this.buckets.size > MAX_BUCKETS) this.buckets.delete(this.buckets.keys().next().value!)
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
