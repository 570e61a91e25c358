import { clockFromText, type KeptClock } from '../../clock/clock-setting.ts'
import type { ClockKeeper } from '../../clock/tenant-clocks.ts'
import { KEY_PREFIX, tenantKeyBase, type RedisClient } from '../../redis/redis-connection.ts'
import { reached } from '../store.ts'

/** Every tenant with a clock kept, so that a reset of all finds them (one key each, not a scan). */
export const CLOCKED = `${KEY_PREFIX}:clocked`
const clockKey = (tenant: string) => `${tenantKeyBase(tenant)}clock`

/**
 * The tenants' clocks in Redis (docs/behaviour.md §8): read on every call, never cached, so every
 * instance answers a tenant on the same clock. One string per tenant under its hash tag (JSON of
 * clock-setting.ts), and one set of the tenants that have one.
 */
export class RedisClockKeeper implements ClockKeeper {
  constructor(private readonly client: RedisClient) {}

  async read(tenant: string): Promise<KeptClock | undefined> {
    return clockFromText(await reached(this.client.get(clockKey(tenant))))
  }

  async write(tenant: string, clock: KeptClock | undefined): Promise<void> {
    if (clock === undefined) {
      await reached(this.client.del(clockKey(tenant)))
      await reached(this.client.srem(CLOCKED, tenant))
      return
    }
    await reached(this.client.sadd(CLOCKED, tenant))
    await reached(this.client.set(clockKey(tenant), JSON.stringify(clock)))
  }

  async clear(): Promise<void> {
    for (const tenant of await reached(this.client.smembers(CLOCKED))) await this.write(tenant, undefined)
  }
}
