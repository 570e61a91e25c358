import { RecencyMap } from '../recency-map.ts'
import { ApiError } from './api-error.ts'

export interface RateLimit {
  /** Requests allowed per window. */
  limit: number
  windowSeconds: number
}

export const DEFAULT_RATE_LIMIT: RateLimit = { limit: 100, windowSeconds: 1 }
/** Buckets kept at most; the oldest idle one goes first. Tenants are bounded, this is too. */
const MAX_BUCKETS = 10_000

interface Bucket {
  tokens: number
  updatedAt: number
}

/**
 * A token bucket per tenant, always counted so the `RateLimit-*` headers tell the truth; it
 * refuses calls (429) only when `enforce` is set, i.e. a limit was configured.
 */
export class RateLimiter {
  /** Least recently called first; the tenant calling again and again is not moved. */
  private readonly buckets = new RecencyMap<Bucket>()
  private readonly burst: number
  private readonly perSecond: number
  private readonly policy: string
  private readonly limitText: string

  constructor(
    rate: RateLimit,
    private readonly enforce: boolean,
  ) {
    this.burst = Math.ceil((rate.limit * 11) / 10) // not `* 1.1`: 100 * 1.1 is 110.00000000000001
    this.perSecond = rate.limit / rate.windowSeconds
    this.limitText = String(rate.limit)
    this.policy = `${rate.limit};w=${rate.windowSeconds};burst=${this.burst};comment="token bucket";category="configuration";cost="single";serviceLevel="mock"`
  }

  /** Takes one token for `tenant`; the headers to send, or a 429 to throw when enforced. */
  take(tenant: string, now: number): Record<string, string> {
    const bucket = this.refilled(tenant, now)
    const allowed = bucket.tokens >= 1
    if (allowed) bucket.tokens -= 1
    const headers = {
      'RateLimit-Limit': this.limitText,
      'RateLimit-Remaining': String(Math.floor(bucket.tokens)),
      'RateLimit-Reset': String(Math.ceil((this.burst - bucket.tokens) / this.perSecond)),
      'RateLimit-Policy': this.policy,
    }
    if (allowed || !this.enforce) return headers
    const retryAfter = String(Math.max(1, Math.ceil((1 - bucket.tokens) / this.perSecond)))
    throw new ApiError(429, 'RATE_LIMITED', 'API rate limit exceeded', { headers: { ...headers, 'Retry-After': retryAfter } })
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
