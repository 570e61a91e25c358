import { clockFromText, type KeptClock } from '../clock/clock-setting.ts'
import { FIRST_PRINTABLE_MS, LAST_PRINTABLE_MS } from '../lib/iso-time.ts'
import type { ClockKeeper } from '../clock/tenant-clocks.ts'
import type { RedisClient } from './redis-connection.ts'
import { GLOBAL_KEYS, tenantKeys } from './redis-keys.ts'
import { reached } from '../store/store.ts'

const CLOCKED = GLOBAL_KEYS.clocked
const clockKey = (tenant: string): string => tenantKeys(tenant).clock

/**
 * Lua: `tenantTime(kept, start, realMs)`, the tenant's time in ms as TenantClocks reads it
 * (clock-setting.ts's clockFromText and timeOf, in doubles as JavaScript's): `kept` is the
 * tenant's clock key as GET answers it (false: none), `start` the JSON of the starting clock.
 * JSON that does not parse raises an error, as JSON.parse throws. A time out of the range of
 * years 0001-9999 is the real time, as TenantClocks puts such a clock back on it.
 */
export const TENANT_TIME = `
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
