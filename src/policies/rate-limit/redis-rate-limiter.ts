import { tenantKeyBase, type RedisClient } from '../../redis/redis-connection.ts'
import { reached } from '../../store/store.ts'
import type { RateLimitHeaders, RateLimitPort } from './rate-limit-port.ts'
import { BucketRules, type RateLimit } from './rate-limiter.ts'
import { defineScripts } from '../../redis/redis-define-scripts.ts'
import { faultsKey } from '../faults/redis-fault-keys.ts'
import type { SeenVersions } from '../faults/seen-versions.ts'
import type { PendingTime } from '../../clock/tenant-clocks.ts'
import { clockKey, TENANT_TIME } from '../../store/redis/redis-clocks.ts'

/**
 * KEYS: the tenant's bucket (hash: t tokens, u updated at, in ms), its fault rules' hash, its
 * clock. ARGV: now (or '': the tenant's time read from its clock, TENANT_TIME), the real time and
 * the starting clock's JSON it is read with, burst, tokens per second, the bucket's time to live in
 * ms. Refills and takes one token as RateLimiter does, in doubles written exactly (%.17g), so both
 * answer alike; a clock behind the bucket's refills nothing. Answers {1 taken or 0, tokens left,
 * the fault rules' version or ''}: read here so that a call matching no rule needs no trip of its
 * own to check them (SeenVersions).
 */
const TAKE = `
${TENANT_TIME}
local now = tonumber(ARGV[1])
if not now then now = tenantTime(redis.call('GET', KEYS[3]), ARGV[3], tonumber(ARGV[2])) end
local burst, perSecond = tonumber(ARGV[4]), tonumber(ARGV[5])
local kept = redis.call('HMGET', KEYS[1], 't', 'u')
local tokens, updatedAt = burst, now
if kept[1] then tokens, updatedAt = tonumber(kept[1]), tonumber(kept[2]) end
if now > updatedAt then
  tokens = math.min(burst, tokens + ((now - updatedAt) / 1000) * perSecond)
  updatedAt = now
end
local taken = 0
if tokens >= 1 then
  tokens = tokens - 1
  taken = 1
end
local left = string.format('%.17g', tokens)
redis.call('HSET', KEYS[1], 't', left, 'u', string.format('%.17g', updatedAt))
redis.call('PEXPIRE', KEYS[1], ARGV[6])
return {taken, left, redis.call('HGET', KEYS[2], 'v') or ''}
`

/** An idle bucket is dropped (full again) after a day of real time, whatever the tenant's clock says. */
const IDLE_BUCKET_MS = 24 * 60 * 60 * 1000
const bucketKey = (tenant: string) => `${tenantKeyBase(tenant)}rate`

interface Scripts {
  novuRateTake(bucket: string, faults: string, clock: string, now: number | '', realMs: number | '', start: string, burst: number, perSecond: number, ttlMs: number): Promise<[number, string, string]>
}

/**
 * One token bucket per tenant in Redis, shared by every instance on it: each call takes its
 * token in one script, sent with the read of the tenant's clock (one round trip for both), so the limit holds over all instances and the headers
 * tell what is left for all. A bucket idle for a day of real time expires; a Redis failure
 * rejects (StoreWriteFailed: 503).
 */
export class RedisRateLimiter implements RateLimitPort {
  private readonly scripts: Scripts
  private readonly rules: BucketRules
  /** An idle bucket is dropped after this long. */
  private readonly ttlMs: number

  constructor(
    private readonly client: RedisClient,
    rate: RateLimit,
    enforce: boolean,
    /** Where the fault rules' version read with each token goes (RedisFaultRules reads it). */
    private readonly faultVersions?: SeenVersions,
  ) {
    this.scripts = defineScripts<Scripts>(client, { novuRateTake: { numberOfKeys: 3, lua: TAKE } })
    this.rules = new BucketRules(rate, enforce)
    // Not the time to refill: under a frozen clock (docs/behaviour.md §8) a spent bucket must stay spent.
    this.ttlMs = Math.max(Math.ceil((this.rules.burst / this.rules.perSecond) * 1000), IDLE_BUCKET_MS)
  }

  /**
   * A time still on its way (RedisClockKeeper's) is not waited for: the script reads the tenant's
   * clock itself, so the token is taken in the trip that reads the clock, at the same time.
   */
  async take(tenant: string, now: number | PendingTime, operationId: string): Promise<RateLimitHeaders> {
    const { burst, perSecond } = this.rules
    const [at, realMs, start] = typeof now === 'number' ? [now, '' as const, ''] : ['' as const, now.realMs, JSON.stringify(now.start)]
    const [taken, left, faults] = await reached(this.scripts.novuRateTake(bucketKey(tenant), faultsKey(tenant), clockKey(tenant), at, realMs, start, burst, perSecond, this.ttlMs))
    this.faultVersions?.note(tenant, faults)
    return this.rules.answer(Number(left), taken === 1, operationId)
  }

  async refill(tenant: string): Promise<void> {
    await reached(this.client.del(bucketKey(tenant)))
  }
}
