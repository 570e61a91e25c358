import type { JournalPort } from '../journal/journal-port.ts'
import { RequestJournal } from '../journal/request-journal.ts'
import type { Logger } from '../log/logger.ts'
import { hashOfKey } from '../log/request-log.ts'
import { DelayedCalls } from '../policies/faults/delayed-calls.ts'
import type { FaultRules } from '../policies/faults/fault-rules.ts'
import { Idempotency } from '../policies/idempotency/idempotency.ts'
import { RunningKeys, type RunningKeysPort } from '../policies/idempotency/running-keys.ts'
import type { RateLimitPort } from '../policies/rate-limit/rate-limit-port.ts'
import { DEFAULT_RATE_LIMIT, RateLimiter } from '../policies/rate-limit/rate-limiter.ts'
import { KEY_RECORDS_KEPT, type ClocksPort, type KeyRecordsPort, type SeedSpec } from '../store/store.ts'
import type { SharedBackend } from '../store/store-backend.ts'
import type { ServerConfig } from './config.ts'
import { TenantClocks } from '../policies/clock/tenant-clocks.ts'
import type { ClockSetting } from '../clock/clock-setting.ts'

/** What every call passes through besides the store, each behind its port. */
export interface Policies {
  idempotency: Idempotency
  journal: JournalPort
  /** Functions over the tenants' values: made over the store (create-state.ts). */
  faults: FaultRules
  /** Each process's own: the calls it holds for a delay, per tenant. */
  delayed: DelayedCalls
  rateLimiter: RateLimitPort
  /** Ends what they run in the background; the store's connection is the store's to close. */
  close(): Promise<void>
}

/** The policies that keep state beside the tenants' values, made before the store; `running`, the keyed calls' markers. */
export type PoliciesBeside = Omit<Policies, 'faults' | 'idempotency'> & { running: RunningKeysPort }

/**
 * The idempotency rules over the store's values (`stored`: a store that stores its changes, a
 * write's record then stored with it), the calls under way marked by `running`.
 */
export const idempotencyOver = (store: KeyRecordsPort, running: RunningKeysPort, stored: boolean, shared: boolean) =>
  new Idempotency({ store, running, keep: KEY_RECORDS_KEPT, stored, shared })

/** Each instance's own, in memory. */
export function memoryPolicies(config: ServerConfig): PoliciesBeside {
  return {
    running: new RunningKeys(),
    journal: new RequestJournal(config.journalSize),
    delayed: new DelayedCalls(),
    rateLimiter: rateLimiterOf(config),
    close: async () => undefined,
  }
}

const rateOf = (config: ServerConfig) => config.rateLimit ?? DEFAULT_RATE_LIMIT
const rateLimiterOf = (config: ServerConfig) => new RateLimiter(rateOf(config), config.rateLimit !== undefined)

/**
 * With --redis: the store's backend and the policies on one connection to Redis, shared by every
 * instance on it (docs/behaviour.md §7). Redis is loaded only here.
 */
export async function redisState(config: ServerConfig, seed: SeedSpec, logger: Logger): Promise<{ backend: SharedBackend; policies: PoliciesBeside }> {
  const { connectRedis, redactedUrl } = await import('../redis/redis-connection.ts')
  const { openRedisOn } = await import('../redis/backend/redis-backend.ts')
  const { RedisRunningKeys } = await import('../redis/redis-running-keys.ts')
  const { RedisRateLimiter } = await import('../redis/redis-rate-limiter.ts')
  const { RedisJournal } = await import('../redis/redis-journal.ts')
  const client = await connectRedis(config.redis!)
  try {
    const backend = await openRedisOn(client, redactedUrl(config.redis!), seed, { waitReplicas: config.redisWaitReplicas })
    const running = new RedisRunningKeys(client)
    // A call is journaled after its answer: a failure to keep it is logged (once an outage), not answered.
    const journal = new RedisJournal({ client, size: config.journalSize, onError: (message) => logger.warn(message) })
    return {
      backend,
      policies: {
        running,
        journal,
        delayed: new DelayedCalls(),
        rateLimiter: new RedisRateLimiter(client, rateOf(config), config.rateLimit !== undefined),
        close: async () => {
          running.close()
          await journal.close()
        },
      },
    }
  } catch (error) {
    client.disconnect()
    throw error
  }
}

/**
 * The tenants' clocks, each kept by the store with its tenant: a tenant whose time goes back gets
 * a full bucket and its idempotency records count as stored at its new time (docs/behaviour.md §8).
 */
export function tenantClocks(config: ServerConfig, policies: Policies, store: ClocksPort, logger: Logger, realNow: () => number): TenantClocks {
  const { rateLimiter, idempotency } = policies
  const onRewind = async (tenant: string, now: number) => {
    await Promise.all([rateLimiter.refill(tenant), idempotency.restamp(tenant, now)])
  }
  const onOutOfRange = (tenant: string, clock: ClockSetting) =>
    logger.warn('a stored clock was out of the years 0001-9999: the tenant is back on real time', { tenant: hashOfKey(tenant), at: clock.at, frozen: clock.frozen })
  return new TenantClocks({ store, start: config.clock, realNow, onRewind, onOutOfRange })
}
