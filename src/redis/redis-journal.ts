import type { JournalCall, JournalEntry, JournalFilter, JournalListener, JournalPort, RecordOptions, SubscribeOptions } from '../journal/journal-port.ts'
import { JournalListeners, MAX_SUBSCRIBERS } from '../journal/journal-listeners.ts'
import { entryOf, keptOf, selected, shown, stateText, statedEntryOf, type Kept } from '../journal/kept-entry.ts'
import { isSecretName } from '../log/redact.ts'
import { subscriberOf, type RedisClient } from './redis-connection.ts'
import { tenantKeys } from './redis-keys.ts'
import { reached } from '../store/store.ts'
import { defineScripts } from './redis-define-scripts.ts'
import { beforeAnswer } from './turn-writes.ts'
import { keyedBatches } from '../lib/keyed-batches.ts'

/** A tenant that stops calling keeps its journal (and its last id) this long after its last call. */
export const JOURNAL_TTL_SECONDS = 24 * 60 * 60

export interface RedisJournalOptions {
  /** A connected client (connectRedis): the journal's reads and writes share it; it stays open at `close`. */
  client: RedisClient
  /** Calls kept per tenant, over every instance. */
  size: number
  /** Listeners at once on this instance, over every tenant. */
  maxSubscribers?: number
  /** Redis lost (or found failing), once per outage: the message names no header, body or key. */
  onError?: (message: string) => void
}

/**
 * A tenant's keys and channel (after its prefix `novu-mock:{tenant}:`):
 *   journal       list: `id\n` and the entry as stored (storedText), oldest first, the newest `size`
 *   journal-id    the tenant's last id, so ids increase over every instance, a clear included
 *   journal-live  channel: each entry as it is kept, as the list holds it
 *
 * RECORD: KEYS: entries, last id. ARGV: size, seconds to live, channel, then each entry as
 * stored, in order: each gets the next id.
 */
const RECORD = `
local count = #ARGV - 3
local id = redis.call('INCRBY', KEYS[2], count) - count
for i = 4, #ARGV do
  id = id + 1
  local kept = id .. '\\n' .. ARGV[i]
  redis.call('RPUSH', KEYS[1], kept)
  redis.call('PUBLISH', ARGV[3], kept)
end
redis.call('LTRIM', KEYS[1], -tonumber(ARGV[1]), -1)
redis.call('EXPIRE', KEYS[1], ARGV[2])
redis.call('EXPIRE', KEYS[2], ARGV[2])
`

/** KEYS: entries. Answers how many were removed. */
const CLEAR = `
local removed = redis.call('LLEN', KEYS[1])
redis.call('DEL', KEYS[1])
return removed
`

/** The scripts, as ioredis defines them (EVALSHA, loaded again after a restart of Redis). */
interface Scripts {
  novuJournalRecord(entries: string, lastId: string, size: number, ttl: number, channel: string, ...stored: string[]): Promise<unknown>
  novuJournalClear(entries: string): Promise<number>
}

/**
 * The journal of every instance on one Redis: the last `size` calls of each tenant, whichever
 * instance answered them, and a live feed of them all. An entry is stored with its secrets
 * redacted (the idempotency key in its bodies, the secret headers), so none reaches Redis.
 */
export class RedisJournal implements JournalPort {
  private readonly client: RedisClient
  private readonly size: number
  private readonly scripts: Scripts
  private readonly listeners: JournalListeners
  private readonly recording: Outage
  private readonly streaming: Outage
  /** Opened for the first listener: a connection that subscribes takes no other command. */
  private subscriber: RedisClient | undefined
  private readonly tenantOfChannel = new Map<string, string>()
  /**
   * Per tenant, the entries recorded since its last script was sent (as stored). Sent before the
   * calls' answers are written: a verify sent through another instance right after an answer finds
   * the call (its command reaches Redis first). Held to the end of the turn (turn-writes.ts), it
   * might not. The entries of the calls answering meanwhile go with it.
   */
  private readonly waiting = keyedBatches<string, void>(
    (_tenant, flush) => beforeAnswer(this.client, flush),
    (tenant, texts) => this.send(tenant, texts),
  )
  private closed = false

  constructor({ client, size, maxSubscribers = MAX_SUBSCRIBERS, onError = () => {} }: RedisJournalOptions) {
    this.client = client
    this.size = size
    this.scripts = defineScripts<Scripts>(client, { novuJournalRecord: { numberOfKeys: 2, lua: RECORD }, novuJournalClear: { numberOfKeys: 1, lua: CLEAR } })
    this.listeners = new JournalListeners(maxSubscribers, { first: (tenant) => this.listen(tenant), last: (tenant) => this.stopListening(tenant) })
    this.recording = new Outage('the request journal cannot record calls on Redis; calls are answered and not journaled until it is back', onError)
    this.streaming = new Outage('the request journal lost its live stream from Redis; it resumes when Redis is back', onError)
  }

  /** Keeps the call, on Redis, in the background: a failure is reported through `onError`, never to the caller. */
  record(tenant: string, call: JournalCall, options?: RecordOptions): void {
    if (this.size === 0) return
    this.waiting.add(tenant, storedText(keptOf(0, call, options)))
  }

  /** The tenant's entries waiting, appended by one script: the ids are Redis's, given in their order. */
  private send(tenant: string, texts: string[]): void {
    const { journal, journalId, journalLive } = tenantKeys(tenant)
    this.scripts.novuJournalRecord(journal, journalId, this.size, JOURNAL_TTL_SECONDS, journalLive, ...texts).then(this.recording.over, this.recording.failed)
  }

  async list(tenant: string, filter: JournalFilter = {}, states = false): Promise<JournalEntry[]> {
    const { limit, ...narrowing } = filter
    const onlyLast = limit !== undefined && Object.values(narrowing).every((value) => value === undefined)
    // What this instance recorded before is listed: its entries still waiting go first.
    this.waiting.flush(tenant)
    const items = await reached(this.client.lrange(tenantKeys(tenant).journal, onlyLast ? -limit : 0, -1))
    // One entry asked for by id: the others are not parsed.
    const idPrefix = filter.id === undefined ? undefined : `${filter.id}\n`
    return selected((idPrefix === undefined ? items : items.filter((item) => item.startsWith(idPrefix))).map(keptFrom), filter, states ? statedEntryOf : entryOf)
  }

  clear(tenant: string): Promise<number> {
    this.waiting.flush(tenant)
    return reached(this.scripts.novuJournalClear(tenantKeys(tenant).journal))
  }

  /** Entries of `tenant` recorded by any instance from now on; `ready` once this instance's subscription to them is in place. */
  subscribe(tenant: string, listener: JournalListener, options?: SubscribeOptions): (() => void) | undefined {
    return this.listeners.add(tenant, listener, options)
  }

  /** Subscriptions open now on this instance, over every tenant. */
  get subscribers(): number {
    return this.listeners.count
  }

  /** Ends the live stream's connection (the client given stays open). */
  async close(): Promise<void> {
    this.closed = true
    // At once: a QUIT would wait in the offline queue while Redis is away, and nothing else is owed on it.
    this.subscriber?.disconnect()
    this.subscriber = undefined
  }

  /** The tenant's first listener: its channel, subscribed once Redis answers (after a reconnect if it is away). */
  private async listen(tenant: string): Promise<void> {
    if (this.closed) throw new Error('the journal is closed')
    const channel = tenantKeys(tenant).journalLive
    this.tenantOfChannel.set(channel, tenant)
    await this.connection().subscribe(channel)
  }

  private stopListening(tenant: string): void {
    const channel = tenantKeys(tenant).journalLive
    this.tenantOfChannel.delete(channel)
    this.subscriber?.unsubscribe(channel).catch(() => {})
  }

  /** The live stream's connection (subscriberOf): a subscription is made once Redis is back. */
  private connection(): RedisClient {
    if (this.subscriber) return this.subscriber
    const subscriber = subscriberOf(this.client)
    subscriber.on('message', (channel: string, item: string) => {
      const tenant = this.tenantOfChannel.get(channel)
      try {
        if (tenant !== undefined) this.listeners.notify(tenant, keptFrom(item))
      } catch {
        // An entry this version cannot read (another version's, on the same Redis) is not streamed; thrown, it would end the process.
      }
    })
    subscriber.on('error', this.streaming.failed)
    subscriber.on('ready', this.streaming.over)
    return (this.subscriber = subscriber)
  }
}

/**
 * An entry as Redis holds it after its id, in two lines: this, as JSON, then its texts (headers,
 * request, response) one after another, each as it is, `lengths` long (-1: none). The texts are
 * JSON or header lines already: quoted into the entry's JSON they were escaped character by
 * character on every call, and parsed back on every read.
 */
type Stored = Omit<Kept, 'id' | 'secret' | 'bytes' | 'headers' | 'request' | 'response' | 'state'> & { state?: string; lengths: number[] }

/** The entry as Redis keeps it: its secrets (the idempotency key in bodies, the secret headers' values) already redacted. */
function storedText(kept: Kept): string {
  const { time, operationId, method, path, url, status, durationMs, violations, note, request, response, requestCut, responseCut, secret, state } = kept
  // A cut body was redacted as it was cut.
  const texts = [
    kept.headers === undefined ? undefined : secretValuesHidden(kept.headers),
    request === undefined || requestCut ? request : shown(request, secret),
    response === undefined || responseCut ? response : shown(response, secret),
  ]
  const stored: Stored = {
    time, operationId, method, path, url, status, durationMs, violations, note, requestCut, responseCut,
    state: state === undefined ? undefined : shown(stateText(state), secret),
    lengths: texts.map((text) => text?.length ?? -1),
  }
  return `${JSON.stringify(stored)}\n${texts.join('')}`
}

/** Header lines (name, value, name, …) with the values of secret names (redact.ts) replaced, as `headersOf` shows them. */
function secretValuesHidden(lines: string): string {
  const split = lines.split('\n')
  let hidden = false
  for (let i = 0; i + 1 < split.length; i += 2) {
    if (!isSecretName(split[i]!)) continue
    split[i + 1] = '[redacted]'
    hidden = true
  }
  return hidden ? split.join('\n') : lines
}

function keptFrom(item: string): Kept {
  const at = item.indexOf('\n')
  const id = Number(item.slice(0, at))
  const textsAt = item.indexOf('\n', at + 1)
  if (textsAt === -1) return keptFromOneJson(id, item.slice(at + 1))
  const { lengths, ...stored } = JSON.parse(item.slice(at + 1, textsAt)) as Stored
  let from = textsAt + 1
  const [headers, request, response] = lengths.map((length) => (length < 0 ? undefined : item.slice(from, (from += length))))
  return { ...stored, headers, request, response, id, secret: undefined, bytes: 0 }
}

/** An entry an earlier version kept (one line of JSON, its texts quoted in it; headers already shown as `headersOf` does): read on the same Redis. */
function keptFromOneJson(id: number, json: string): Kept {
  return { ...(JSON.parse(json) as Omit<Kept, 'id' | 'secret' | 'bytes'>), id, secret: undefined, bytes: 0 }
}

/** A failure reported once until the next success, however many calls meet it meanwhile. */
class Outage {
  private down = false

  constructor(
    private readonly what: string,
    private readonly report: (message: string) => void,
  ) {}

  readonly failed = (error: unknown): void => {
    if (this.down) return
    this.down = true
    // ioredis's message names the connection or the failure, never a command's arguments.
    this.report(`${this.what} (${error instanceof Error ? error.message : String(error)})`)
  }

  readonly over = (): void => {
    this.down = false
  }
}
