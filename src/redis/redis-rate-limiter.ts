import type { RedisClient } from './redis-connection.ts'
import { tenantKeys } from './redis-keys.ts'
import { reached } from '../store/store.ts'
import type { RateLimitHeaders, RateLimitPort } from '../policies/rate-limit/rate-limit-port.ts'
import { BucketRules, type RateLimit } from '../policies/rate-limit/rate-limiter.ts'
import { defineScripts } from './redis-define-scripts.ts'
import type { PendingTime } from '../policies/clock/tenant-clocks.ts'
import { FIRST_PRINTABLE_MS, LAST_PRINTABLE_MS } from '../lib/iso-time.ts'
import { beforeTurnWrite } from './turn-writes.ts'
import { keyedBatches } from '../lib/keyed-batches.ts'

/**
 * Lua: `tenantTime(kept, start, realMs)`, the tenant's time in ms as TenantClocks reads it
 * (clock-setting.ts's clockFromText and timeOf, in doubles as JavaScript's): `kept` is the
 * tenant's clock as HGET answers it from its value's hash (false: none), `start` the JSON of
 * the starting clock. JSON that does not parse raises an error, as JSON.parse throws. A time
 * out of the range of years 0001-9999 is the real time, as TenantClocks puts such a clock back on it.
 */
const TENANT_TIME = `
local function clockOf(text)
  local clock = cjson.decode(text)
  if clock == cjson.null then return 'real' end
  if type(clock) == 'table' and type(clock.at) == 'number' and type(clock.frozen) == 'boolean' and type(clock.since) == 'number' then return clock end
  return nil
end
local function tenantTime(kept, start, realMs)
  local clock = kept and clockOf(kept)
  if clock == nil or clock == false then clock = clockOf(start) end
  if clock == 'real' then return realMs end
  local time = clock.at
  if not clock.frozen then time = clock.at + (realMs - clock.since) end
  if time >= ${FIRST_PRINTABLE_MS} and time <= ${LAST_PRINTABLE_MS} then return time end
  return realMs
end
`

/**
 * KEYS: the tenant's bucket (hash: t tokens, u updated at, in ms), its value's hash (`meta`, whose
 * field `clock` is its clock: backend/redis-scripts.ts). ARGV: burst, tokens per second, the bucket's time
 * to live in ms, then per call in the order they came: now (or '': the tenant's time read from its
 * clock, TENANT_TIME), the real time and the starting clock's JSON it is read with. For each call
 * in turn, refills and takes one token as RateLimiter does, in doubles written exactly (%.17g), so
 * both answer alike; a clock behind the bucket's refills nothing. Answers, per call: 1 taken or 0,
 * tokens left.
 */
const TAKE = `
${TENANT_TIME}
local burst, perSecond = tonumber(ARGV[1]), tonumber(ARGV[2])
local kept = redis.call('HMGET', KEYS[1], 't', 'u')
local clock = redis.call('HGET', KEYS[2], 'clock')
local tokens, updatedAt = burst, nil
if kept[1] then tokens, updatedAt = tonumber(kept[1]), tonumber(kept[2]) end
local answer = {}
for i = 4, #ARGV, 3 do
  local now = tonumber(ARGV[i])
  if not now then now = tenantTime(clock, ARGV[i + 2], tonumber(ARGV[i + 1])) end
  if updatedAt == nil then updatedAt = now end
  if now > updatedAt then
    tokens = math.min(burst, tokens + ((now - updatedAt) / 1000) * perSecond)
    updatedAt = now
  end
  local taken = 0
  if tokens >= 1 then
    tokens = tokens - 1
    taken = 1
  end
  table.insert(answer, taken)
  table.insert(answer, string.format('%.17g', tokens))
end
redis.call('HSET', KEYS[1], 't', string.format('%.17g', tokens), 'u', string.format('%.17g', updatedAt))
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return answer
`

/** An idle bucket is dropped (full again) after a day of real time, whatever the tenant's clock says. */
const IDLE_BUCKET_MS = 24 * 60 * 60 * 1000

interface Scripts {
  /** The keys, then burst, tokens per second, time to live, then per call: now, real time, starting clock (TAKE). */
  novuRateTake(bucket: string, meta: string, ...args: (string | number)[]): Promise<(number | string)[]>
}

/** A call's token asked for, and what settles its caller's promise. */
interface Asked {
  now: number | PendingTime
  operationId: string
  resolve: (headers: RateLimitHeaders) => void
  reject: (error: unknown) => void
}

/**
 * One token bucket per tenant in Redis, shared by every instance on it. The tokens of a tenant's
 * calls that arrive in one turn of the event loop are taken by one script, call after call in the
 * order they came, sent with the turn's other commands (the tenant's sync among them: one
 * round trip for both), so the limit holds over all instances and the headers tell what
 * is left for all, each call answered as if it had taken its token alone. A bucket idle for a day
 * of real time expires; a Redis failure rejects (StoreWriteFailed: 503).
 */
export class RedisRateLimiter implements RateLimitPort {
  private readonly scripts: Scripts
  private readonly rules: BucketRules
  /** An idle bucket is dropped after this long. */
  private readonly ttlMs: number
  /** Per tenant, the calls of this turn waiting for their tokens, sent as the turn's commands leave. */
  private readonly asked = keyedBatches<Asked, void>(
    (_tenant, flush) => beforeTurnWrite(this.client, flush),
    (tenant, calls) => this.send(tenant, calls),
  )

  constructor(
    private readonly client: RedisClient,
    rate: RateLimit,
    enforce: boolean,
  ) {
    this.scripts = defineScripts<Scripts>(client, { novuRateTake: { numberOfKeys: 2, lua: TAKE } })
    this.rules = new BucketRules(rate, enforce)
    // Not the time to refill: under a frozen clock (docs/behaviour.md §8) a spent bucket must stay spent.
    this.ttlMs = Math.max(Math.ceil((this.rules.burst / this.rules.perSecond) * 1000), IDLE_BUCKET_MS)
  }

  /**
   * A time still on its way (the tenant's sync with Redis) is not waited for: the script reads the
   * tenant's clock itself, from its value, so the token is taken in that trip, at the same time.
   */
  take(tenant: string, now: number | PendingTime, operationId: string): Promise<RateLimitHeaders> {
    return new Promise((resolve, reject) => this.asked.add(tenant, { now, operationId, resolve, reject }))
  }

  async refill(tenant: string): Promise<void> {
    await reached(this.client.del(tenantKeys(tenant).rate))
  }

  /** Takes the tokens the tenant's calls of this turn asked for, in one script; answers each call. */
  private send(tenant: string, calls: Asked[]): void {
    const { burst, perSecond } = this.rules
    const args = calls.flatMap(({ now }) => (typeof now === 'number' ? [now, '', ''] : ['', now.realMs, JSON.stringify(now.start)]))
    const keys = tenantKeys(tenant)
    reached(this.scripts.novuRateTake(keys.rate, keys.meta, burst, perSecond, this.ttlMs, ...args)).then(
      (taken) => {
        calls.forEach(({ operationId, resolve, reject }, i) => {
          try {
            resolve(this.rules.answer(Number(taken[2 * i + 1]), taken[2 * i] === 1, operationId))
          } catch (refused) {
            reject(refused)
          }
        })
      },
      (error: unknown) => {
        for (const { reject } of calls) reject(error)
      },
    )
  }
}
