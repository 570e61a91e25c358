import { randomUUID } from 'node:crypto'
import type { RedisClient } from './redis-connection.ts'
import { tenantKeys } from './redis-keys.ts'
import { reached } from '../store/store.ts'
import type { Fingerprint, RunningCall, RunningKeysPort } from '../policies/idempotency/running-keys.ts'
import { defineScripts } from './redis-define-scripts.ts'
import { flushBeforeAnswer } from './turn-writes.ts'

/**
 * KEYS: a call's marker. ARGV: the marker's value as its call set it, then its new time to live
 * in ms, or '' to delete it: only the call that set a marker renews or deletes it.
 */
const IF_MINE = `
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
if ARGV[2] == '' then redis.call('DEL', KEYS[1]) else redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return 1
`

interface Scripts {
  novuIfMine(marker: string, value: string, ttl: number | ''): Promise<number>
}

/** By default a killed instance's keys answer 409 for at most five seconds. */
const RUNNING_MS = 5000

/** A marker as this instance set it: its key and value. */
interface Marker {
  key: string
  value: string
}

/**
 * The in-flight markers of keyed calls in Redis (docs/behaviour.md §4), so that a key under way
 * on one instance is a 409 on any: one key per call, `running:` + the idempotency key, holding
 * the call's own token and fingerprint (`token\nmethod\npath\nprint`), set with NX and a time to
 * live of `runningMs` that this instance renews while the call runs, so that a killed instance
 * leaves a key answering 409 for at most that long.
 */
export class RedisRunningKeys implements RunningKeysPort {
  private readonly scripts: Scripts
  private readonly markers = new Map<RunningCall, Marker>()
  private renewing: NodeJS.Timeout | undefined

  constructor(
    private readonly client: RedisClient,
    private readonly runningMs = RUNNING_MS,
  ) {
    this.scripts = defineScripts<Scripts>(client, { novuIfMine: { numberOfKeys: 1, lua: IF_MINE } })
  }

  async claim(call: RunningCall): Promise<Fingerprint | undefined> {
    const marker = { key: `${tenantKeys(call.tenant).running}${call.key}`, value: `${randomUUID()}\n${call.method}\n${call.path}\n${call.print}` }
    // Sent in one turn, so in one trip: the GET reads the marker that stopped the SET, if any.
    const [set, held] = await reached(Promise.all([this.client.set(marker.key, marker.value, 'PX', this.runningMs, 'NX'), this.client.get(marker.key)]))
    if (set !== 'OK') return fingerprintOf(held) ?? call
    this.markers.set(call, marker)
    this.renewing ??= setInterval(() => this.renew(), this.runningMs / 3).unref()
    return undefined
  }

  release(call: RunningCall): void {
    const marker = this.markers.get(call)
    if (!marker) return
    this.markers.delete(call)
    // A marker left behind (Redis unreachable) goes by itself within runningMs.
    this.scripts.novuIfMine(marker.key, marker.value, '').catch(() => undefined)
    // Not waited for, but in Redis before the answer: the key's next call, through any instance, finds it free.
    flushBeforeAnswer(this.client)
  }

  close(): void {
    clearInterval(this.renewing)
    this.renewing = undefined
  }

  /** One timer renews every marker of this instance whose call still runs. */
  private renew(): void {
    for (const { key, value } of this.markers.values()) this.scripts.novuIfMine(key, value, this.runningMs).catch(() => undefined)
  }
}

/** A marker's fingerprint; undefined when it was gone by the time it was read (its call had just ended). */
function fingerprintOf(value: string | null): Fingerprint | undefined {
  if (value === null) return undefined
  const [, method = '', path = '', ...print] = value.split('\n')
  return { method, path, print: print.join('\n') }
}
