import { randomUUID } from 'node:crypto'
import type { RedisClient } from './redis-connection.ts'
import { tenantKeys } from './redis-keys.ts'
import { reached } from '../store/store.ts'
import type { Fingerprint, RunningCall, RunningKeysPort } from '../policies/idempotency/running-keys.ts'
import { defineScripts } from './redis-define-scripts.ts'
import { flushBeforeAnswer } from './turn-writes.ts'

/** KEYS: a call's marker. ARGV: its value, its time to live in ms. Answers nothing when set, else the value that holds it. */
const CLAIM = `
if redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2], 'NX') then return false end
return redis.call('GET', KEYS[1])
`

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
  novuClaim(marker: string, value: string, ttl: number): Promise<string | null>
  novuIfMine(marker: string, value: string, ttl: number | ''): Promise<number>
}

/** By default a killed instance's keys answer 409 for at most five seconds. */
const RUNNING_MS = 5000

/** The marker of a call's key. */
export const markerKey = (tenant: string, key: string): string => `${tenantKeys(tenant).running}${key}`

/**
 * The in-flight markers of keyed calls in Redis (docs/behaviour.md §4), so that a key under way
 * on one instance is a 409 on any: one key per call, `key:` + the idempotency key, holding the
 * call's own token and fingerprint (`token\nmethod\npath\nprint`), set only if absent with a time
 * to live of `runningMs` that this instance renews while the call runs, so that a killed instance
 * leaves a key answering 409 for at most that long. A write that stores the call's record deletes
 * its marker in the same script (backend/redis-scripts.ts's PUTS).
 */
export class RedisRunningKeys implements RunningKeysPort {
  private readonly scripts: Scripts
  private readonly running = new Set<RunningCall>()
  private renewing: NodeJS.Timeout | undefined

  constructor(
    private readonly client: RedisClient,
    private readonly runningMs = RUNNING_MS,
  ) {
    this.scripts = defineScripts<Scripts>(client, { novuClaim: { numberOfKeys: 1, lua: CLAIM }, novuIfMine: { numberOfKeys: 1, lua: IF_MINE } })
  }

  async claim(call: RunningCall): Promise<Fingerprint | undefined> {
    const value = `${randomUUID()}\n${call.method}\n${call.path}\n${call.print}`
    const held = await reached(this.scripts.novuClaim(markerKey(call.tenant, call.key), value, this.runningMs))
    if (held !== null) return fingerprintOf(held)
    call.marker = value
    this.running.add(call)
    this.renewing ??= setInterval(() => this.renew(), this.runningMs / 3).unref()
    return undefined
  }

  release(call: RunningCall, stored = false): void {
    if (!this.running.delete(call) || stored) return
    // A marker left behind (Redis unreachable) goes by itself within runningMs.
    this.scripts.novuIfMine(markerKey(call.tenant, call.key), call.marker!, '').catch(() => undefined)
    // Not waited for, but in Redis before the answer: the key's next call, through any instance, finds it free.
    flushBeforeAnswer(this.client)
  }

  close(): void {
    clearInterval(this.renewing)
    this.renewing = undefined
  }

  /** One timer renews every marker of this instance whose call still runs. */
  private renew(): void {
    for (const call of this.running) this.scripts.novuIfMine(markerKey(call.tenant, call.key), call.marker!, this.runningMs).catch(() => undefined)
  }
}

/** A marker's fingerprint (its value less its token). */
function fingerprintOf(value: string): Fingerprint {
  const [, method = '', path = '', ...print] = value.split('\n')
  return { method, path, print: print.join('\n') }
}
