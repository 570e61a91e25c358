import { randomUUID } from 'node:crypto'
import type { RedisClient } from './redis-connection.ts'
import { KEEP_RECORD, keyOrderKey, keyRecordJson, keyRecordKey, recordKeyPrefix } from './redis-key-records.ts'
import { reached, type KeyedWrite, type KeyRecord } from '../store/store.ts'
import type { IdempotencyPort, KeyedRequest, Outcome, Recording } from '../policies/idempotency/idempotency-port.ts'
import { answerBody, answerText, bodyPrint, checkKeyLength, isReplayed, keyInProgress, keyReused, RETENTION_MS } from '../policies/idempotency/key-rules.ts'
import { defineScripts } from './redis-define-scripts.ts'
import { flushBeforeAnswer } from './turn-writes.ts'

/**
 * KEYS: the key's record, the tenant's keys in order. ARGV: method, path, print, token, the
 * running record's life (ms), keys kept, now (ms), the key, the records' key prefix.
 * Answers {'replay', status, answer}, {'reused'}, {'running'}, or {'proceed'} with the record
 * opened. A finished record past its `expiresAt` (the tenant's time) is gone. The tenant's oldest
 * keys past the bound go, their records with them (keys of the tenant's hash tag, named here
 * rather than in KEYS: one slot of a cluster all the same).
 */
const BEGIN = `
local record, order = KEYS[1], KEYS[2]
local held = redis.call('HMGET', record, 'method', 'path', 'print', 'status', 'answer', 'expiresAt')
if held[6] and tonumber(held[6]) <= tonumber(ARGV[7]) then
  redis.call('DEL', record)
  held = {}
end
if held[4] then
  if held[1] ~= ARGV[1] or held[2] ~= ARGV[2] or held[3] ~= ARGV[3] then return {'reused'} end
  if held[4] == '0' then return {'running'} end
  return {'replay', held[4], held[5]}
end
redis.call('HSET', record, 'method', ARGV[1], 'path', ARGV[2], 'print', ARGV[3], 'status', '0', 'token', ARGV[4])
redis.call('PEXPIRE', record, ARGV[5])
redis.call('ZADD', order, ARGV[7], ARGV[8])
local over = redis.call('ZCARD', order) - tonumber(ARGV[6])
if over > 0 then
  local oldest = redis.call('ZPOPMIN', order, over)
  for i = 1, #oldest, 2 do redis.call('DEL', ARGV[9] .. oldest[i]) end
end
redis.call('PEXPIRE', order, ${RETENTION_MS})
return {'proceed'}
`

/** KEYS: the record. ARGV: the call's token, then what to do to the record if it is still that call's and running. */
const IF_RUNNING = `
if redis.call('HGET', KEYS[1], 'token') ~= ARGV[1] or redis.call('HGET', KEYS[1], 'status') ~= '0' then return 0 end
if ARGV[2] == 'forget' then redis.call('DEL', KEYS[1]) else redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return 1
`

/** KEYS: the tenant's keys in order. ARGV: the records' key prefix, their new expiresAt. */
const RESTAMP = `
for _, key in ipairs(redis.call('ZRANGE', KEYS[1], 0, -1)) do
  local record = ARGV[1] .. key
  if redis.call('HEXISTS', record, 'expiresAt') == 1 then redis.call('HSET', record, 'expiresAt', ARGV[2]) end
end
`

/** KEYS: the tenant's keys in order. ARGV: the records' key prefix. Deletes every record of the tenant. */
const FORGET = `
for _, key in ipairs(redis.call('ZRANGE', KEYS[1], 0, -1)) do redis.call('DEL', ARGV[1] .. key) end
redis.call('DEL', KEYS[1])
`

/** KEYS: the record. ARGV: the finished record (keyRecordJson). */
const FINISH = KEEP_RECORD('KEYS[1]', 'ARGV[1]')

interface Scripts {
  novuKeyBegin(record: string, order: string, ...args: (string | number)[]): Promise<[string, string?, string?]>
  novuKeyIfRunning(record: string, token: string, action: string | number): Promise<number>
  novuKeyFinish(record: string, json: string): Promise<unknown>
  novuKeyRestamp(order: string, prefix: string, expiresAt: number): Promise<unknown>
  novuKeyForget(order: string, prefix: string): Promise<unknown>
}

/** A running call's record, this adapter's: what renews, finishes or forgets it. */
interface RunningRecord extends Recording {
  readonly key: string
  readonly redisKey: string
  readonly token: string
  readonly method: string
  readonly path: string
  readonly print: string
  readonly expiresAt: number
  /** Stored by the store with the call's write: nothing left for `finish` to store. */
  stored: boolean
}

export interface RedisIdempotencyLimits {
  /** Keys kept per tenant: the most recent ones. */
  maxPerTenant: number
  /**
   * How long a running call's record lives unless renewed: an instance renews its running calls'
   * records a few times within it, so a killed instance leaves a key answering 409 for at most this.
   */
  runningMs?: number
}

/** By default a killed instance's keys answer 409 for at most five seconds. */
const RUNNING_MS = 5000

/**
 * The idempotency records in Redis, shared by every instance on it (docs/behaviour.md §4): a key
 * sent to one instance is replayed by any, and a record is stored with the write it records, in
 * the store's write script.
 */
export class RedisIdempotency implements IdempotencyPort {
  private readonly scripts: Scripts
  private readonly running = new Set<RunningRecord>()
  private readonly runningMs: number
  private renewing: NodeJS.Timeout | undefined

  constructor(
    private readonly client: RedisClient,
    private readonly limits: RedisIdempotencyLimits,
  ) {
    this.scripts = defineScripts<Scripts>(client, {
      novuKeyBegin: { numberOfKeys: 2, lua: BEGIN },
      novuKeyIfRunning: { numberOfKeys: 1, lua: IF_RUNNING },
      novuKeyFinish: { numberOfKeys: 1, lua: FINISH },
      novuKeyRestamp: { numberOfKeys: 1, lua: RESTAMP },
      novuKeyForget: { numberOfKeys: 1, lua: FORGET },
    })
    this.runningMs = limits.runningMs ?? RUNNING_MS
  }

  async begin(tenant: string, key: string, { method, path, body }: KeyedRequest, now: number): Promise<Outcome> {
    checkKeyLength(key)
    const print = bodyPrint(body)
    const redisKey = keyRecordKey(tenant, key)
    const token = randomUUID()
    const args = [method, path, print, token, this.runningMs, this.limits.maxPerTenant, now, key, recordKeyPrefix(tenant)]
    const [outcome, status, answer] = await reached(this.scripts.novuKeyBegin(redisKey, keyOrderKey(tenant), ...args))
    if (outcome === 'reused') throw keyReused(key)
    if (outcome === 'running') throw keyInProgress(key)
    if (outcome === 'replay') return { kind: 'replay', status: Number(status), body: answerBody(answer!) }
    const record: RunningRecord = { kind: 'proceed', key, redisKey, token, method, path, print, expiresAt: now + RETENTION_MS, stored: false }
    this.keepRenewing(record)
    return record
  }

  recordOfWrite(recording: Recording, status: number): (result: unknown) => KeyedWrite {
    const record = recording as RunningRecord
    return (result) => {
      record.stored = true
      return { record: this.finished(record, status, answerText(result)), keep: this.limits.maxPerTenant }
    }
  }

  finish(recording: Recording, status: number, json: string): Promise<void> | undefined {
    const record = recording as RunningRecord
    if (!isReplayed(status)) return void this.abandon(recording)
    this.running.delete(record)
    if (record.stored) return undefined
    return reached(this.scripts.novuKeyFinish(record.redisKey, keyRecordJson(this.finished(record, status, json)))).then(() => undefined)
  }

  abandon(recording: Recording): void {
    const record = recording as RunningRecord
    this.running.delete(record)
    // A record left behind (Redis unreachable) goes by itself within runningMs.
    this.scripts.novuKeyIfRunning(record.redisKey, record.token, 'forget').catch(() => undefined)
    // Not waited for, but in Redis before the answer: the key's next call, through any instance, finds it free.
    flushBeforeAnswer(this.client)
  }

  async restamp(tenant: string, now: number): Promise<void> {
    await reached(this.scripts.novuKeyRestamp(keyOrderKey(tenant), recordKeyPrefix(tenant), now + RETENTION_MS))
  }

  async forget(tenant: string): Promise<void> {
    await reached(this.scripts.novuKeyForget(keyOrderKey(tenant), recordKeyPrefix(tenant)))
  }

  close(): void {
    clearInterval(this.renewing)
    this.renewing = undefined
  }

  private finished({ key, method, path, print, expiresAt }: RunningRecord, status: number, answer: string): KeyRecord {
    return { key, method, path, print, status, answer, expiresAt }
  }

  /** One timer renews every running record of this instance; a record whose call has ended is not. */
  private keepRenewing(record: RunningRecord): void {
    this.running.add(record)
    this.renewing ??= setInterval(() => this.renew(), this.runningMs / 3).unref()
  }

  private renew(): void {
    for (const { redisKey, token } of this.running) this.scripts.novuKeyIfRunning(redisKey, token, this.runningMs).catch(() => undefined)
  }
}
