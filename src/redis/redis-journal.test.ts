import { once } from 'node:events'
import { describe, expect, it } from 'vitest'
import { collected, redisForTests, subscribed } from '../../test/helpers/journals.ts'
import { redisTestsSkipped, startRedis } from '../../test/helpers/redis-server.ts'
import { connectRedis } from './redis-connection.ts'
import { KEY_PREFIX, tenantKeyBase } from './redis-keys.ts'
import { StoreWriteFailed } from '../store/store.ts'
import type { JournalCall, JournalEntry, JournalEvent, RecordOptions } from '../journal/journal-port.ts'
import { BODY_LIMIT } from '../journal/kept-entry.ts'
import { JOURNAL_TTL_SECONDS, RedisJournal } from './redis-journal.ts'
import { RequestJournal } from '../journal/request-journal.ts'

/**
 * Two RedisJournals on two clients of one Redis stand for two instances. What both adapters do
 * alike (filters, redaction, the listeners' forms) is in journal-*.test.ts, run on both.
 */
const KEY = 'idem-5c1e'
const TENANT = 'ApiKey of a tenant'

const call = (n: number, extra: Partial<JournalCall> = {}): JournalCall => ({
  time: `2026-11-23T10:00:${String(n % 60).padStart(2, '0')}.000Z`,
  operationId: n % 2 === 0 ? 'getSubscriber' : 'markMessagesAs',
  method: n % 2 === 0 ? 'GET' : 'POST',
  path: '/x',
  url: `/x?n=${n}`,
  status: n % 3 === 0 ? 404 : 200,
  durationMs: n,
  requestBody: { n },
  responseBody: { n },
  ...extra,
})
const ns = (entries: JournalEntry[]) => entries.map((entry) => (entry.requestBody as { n: number }).n)
const parsed = (event: JournalEvent) => JSON.parse(event.json) as JournalEntry
/** Once each instance's records are in: a read on a client is answered after the commands sent before it. */
const settled = (...journals: RedisJournal[]) => Promise.all(journals.map((journal) => journal.list('')))

describe.skipIf(redisTestsSkipped())('the journal on Redis, over two instances', () => {
  const redis = redisForTests()
  const twoInstances = async (size = 100) => ({ a: await redis.journal({ size }), b: await redis.journal({ size }) })

  it('lists the calls of both, filters included, with ids that never repeat', async () => {
    const { a, b } = await twoInstances()
    // Recorded at once from both: each instance's records race the other's.
    for (let n = 0; n < 40; n++) (n % 2 === 0 ? a : b).record(TENANT, call(n))
    await settled(a, b)
    const [onA, onB] = [await a.list(TENANT), await b.list(TENANT)]
    expect(onB).toEqual(onA)
    expect(onA.map((entry) => entry.id)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1))
    expect(ns(onA).sort((x, y) => x - y)).toEqual(Array.from({ length: 40 }, (_, n) => n))
    // Recorded on one, filtered on the other.
    expect(ns(await b.list(TENANT, { operationId: 'getSubscriber' }))).toEqual(ns(onA).filter((n) => n % 2 === 0))
    expect(ns(await a.list(TENANT, { method: 'POST' }))).toEqual(ns(onA).filter((n) => n % 2 === 1))
    expect(ns(await a.list(TENANT, { status: 404, limit: 3 }))).toEqual(ns(onA).filter((n) => n % 3 === 0).slice(-3))
    expect(ns(await b.list(TENANT, { id: onA[7]!.id }))).toEqual([ns(onA)[7]])
    expect(ns(await b.list(TENANT, { limit: 2 }))).toEqual(ns(onA).slice(-2))
    expect(await b.list('another tenant')).toEqual([])
  })

  it('appends the entries of calls answered together with one script, each with the next id, in order', async () => {
    const { a } = await twoInstances()
    const client = await redis.client()
    // Scripts run, as EVALSHA or as EVAL when Redis had not loaded them yet.
    const scripts = async () => [...(await client.info('commandstats')).matchAll(/cmdstat_eval(?:sha)?:calls=(\d+)/g)].reduce((sum, [, calls]) => sum + Number(calls), 0)
    const before = await scripts()
    for (let n = 0; n < 5; n++) a.record(TENANT, call(n))
    await Promise.resolve()
    const listed = await a.list(TENANT)
    expect(listed.map((entry) => entry.id)).toEqual([1, 2, 3, 4, 5])
    expect(ns(listed)).toEqual([0, 1, 2, 3, 4])
    expect((await scripts()) - before).toBe(1)
  })

  it('keeps the last `size` calls of a tenant over both, and a clear on one clears for both', async () => {
    const { a, b } = await twoInstances(5)
    for (let n = 0; n < 4; n++) a.record(TENANT, call(n))
    await settled(a)
    for (let n = 4; n < 8; n++) b.record(TENANT, call(n))
    b.record('another tenant', call(0))
    await settled(b)
    expect(ns(await a.list(TENANT))).toEqual([3, 4, 5, 6, 7])
    expect(await b.clear(TENANT)).toBe(5)
    expect(await a.list(TENANT)).toEqual([])
    expect(await a.list('another tenant')).toHaveLength(1)
    // Ids go on after a clear: an id once shown never names another call.
    a.record(TENANT, call(8))
    await settled(a)
    expect(await b.list(TENANT)).toEqual([expect.objectContaining({ id: 9 })])
  })

  it('hands a listener on one instance the calls recorded on any, its own once, with or without bodies', async () => {
    const { a, b } = await twoInstances()
    const whole = collected(parsed)
    const summary = collected(parsed)
    const other = collected(parsed)
    await subscribed(a, TENANT, whole.listener)
    await subscribed(a, TENANT, summary.listener, { bodies: false })
    await subscribed(b, 'another tenant', other.listener)
    b.record(TENANT, call(1, { requestBody: { text: 'x'.repeat(BODY_LIMIT) } }))
    a.record(TENANT, call(2))
    b.record('another tenant', call(3))
    await settled(a, b)
    const listed = await a.list(TENANT)
    expect(await whole.until(2)).toEqual(listed)
    expect(listed[0]!.truncated).toBe(true)
    expect(await summary.until(2)).toEqual(listed.map(({ requestBody, responseBody, truncated, headers, ...rest }) => rest))
    expect(ns(await other.until(1))).toEqual([3])
    expect([whole.items.length, summary.items.length]).toEqual([2, 2])
  })

  it('stops listening to a tenant when its last listener leaves, on this instance only', async () => {
    const { a, b } = await twoInstances()
    const stopped = collected(parsed)
    const onB = collected(parsed)
    const stop = (await subscribed(a, TENANT, stopped.listener))!
    await subscribed(b, TENANT, onB.listener)
    stop()
    expect(a.subscribers).toBe(0)
    a.record(TENANT, call(1))
    expect(ns(await onB.until(1))).toEqual([1])
    expect(stopped.items).toEqual([])
  })

  it('shows a call as the in-memory journal does: secrets redacted, and the idempotency key never stored', async () => {
    const { a, b } = await twoInstances()
    const inMemory = new RequestJournal(100)
    const rawHeaders = ['Authorization', 'ApiKey secret', 'Idempotency-Key', KEY, 'Cookie', 'c=secret', 'X-Admin-Token', 'secret', 'X-Trace', 't']
    const keyed: [JournalCall, RecordOptions][] = [
      [call(1, { rawHeaders, requestBody: { messageId: [KEY] }, responseBody: { note: `for ${KEY}` } }), { secret: KEY, responseText: JSON.stringify({ note: `for ${KEY}` }) }],
      [call(2, { requestBody: { text: `${'x'.repeat(BODY_LIMIT - 4)}${KEY}` } }), { secret: KEY }],
      [call(3, { responseBody: undefined, status: 204, violations: [{ direction: 'response', message: 'no body' }] }), {}],
    ]
    const streamed = collected((event) => event.json)
    await subscribed(b, TENANT, streamed.listener)
    for (const [each, options] of keyed) {
      a.record(TENANT, each, options)
      inMemory.record(TENANT, each, options)
    }
    await settled(a)
    const shown = inMemory.list(TENANT)
    expect(await b.list(TENANT)).toEqual(shown)
    expect(await streamed.until(3)).toEqual(shown.map((entry) => JSON.stringify(entry)))
    expect(JSON.stringify(shown)).not.toContain(KEY)
    const stored = await (await redis.client()).lrange(`${tenantKeyBase(TENANT)}journal`, 0, -1)
    expect(stored).toHaveLength(3)
    for (const secret of [KEY, 'secret']) expect(stored.join('\n')).not.toContain(secret)
  })

  it('lists an entry an earlier version stored (one line of JSON) beside the ones it stores', async () => {
    const { a } = await twoInstances()
    const client = await redis.client()
    const earlier = { ...call(1), headers: 'x-trace\nt\nauthorization\n[redacted]', request: '{"n":1}', response: '{"n":1}', requestCut: false, responseCut: false }
    await client.rpush(`${tenantKeyBase(TENANT)}journal`, `7\n${JSON.stringify(earlier)}`)
    await client.set(`${tenantKeyBase(TENANT)}journal-id`, 7)
    // Texts of any length and Latin-1 header values: each read back at its own length.
    const rawHeaders = ['X-Trace', 'café', 'Authorization', 'ApiKey secret', 'X-Trace', 'ü']
    a.record(TENANT, call(2, { rawHeaders, requestBody: { text: 'é'.repeat(BODY_LIMIT + 3) }, responseBody: { lines: 'a\nb' } }))
    const [old, now] = await a.list(TENANT)
    expect(old).toMatchObject({ id: 7, headers: { 'x-trace': 't', authorization: '[redacted]' }, requestBody: { n: 1 }, responseBody: { n: 1 } })
    expect(now).toMatchObject({ id: 8, headers: { 'x-trace': 'café, ü', authorization: '[redacted]' }, responseBody: { lines: 'a\nb' }, truncated: true })
    expect(now!.requestBody).toBe(JSON.stringify({ text: 'é'.repeat(BODY_LIMIT + 3) }).slice(0, BODY_LIMIT))
  })

  it('keeps a tenant’s keys under its base, for 24 hours after its last call', async () => {
    const { a } = await twoInstances()
    a.record(TENANT, call(1))
    a.record('another tenant', call(2))
    await a.list(TENANT)
    const client = await redis.client()
    const keys = await client.keys(`${KEY_PREFIX}*`)
    expect(keys.filter((key) => key.startsWith(tenantKeyBase(TENANT)))).toHaveLength(2)
    expect(keys.filter((key) => key.startsWith(tenantKeyBase('another tenant')))).toHaveLength(2)
    for (const key of keys) {
      expect(await client.ttl(key)).toBeGreaterThan(JOURNAL_TTL_SECONDS - 60)
      expect(await client.ttl(key)).toBeLessThanOrEqual(JOURNAL_TTL_SECONDS)
    }
  })

  it('subscribes again by itself when its connection to Redis is cut, and ends it at close', async () => {
    const { a, b } = await twoInstances()
    const seen = collected(parsed)
    await subscribed(a, TENANT, seen.listener)
    const admin = await redis.client()
    expect(await admin.client('KILL', 'TYPE', 'PUBSUB')).toBe(1)
    // Recorded until one comes through: it came on the connection ioredis opened again, subscribed again.
    for (let n = 0; seen.items.length === 0; n++) {
      b.record(TENANT, call(n))
      await b.list(TENANT, { limit: 1 })
      await new Promise((resolve) => setTimeout(resolve, 10))
    }
    expect(seen.items[0]!.id).toBeGreaterThan(0)
    await a.close()
    while ((await admin.client('LIST', 'TYPE', 'PUBSUB')) !== '') await new Promise((resolve) => setTimeout(resolve, 10))
  })
})

describe.skipIf(redisTestsSkipped())('the journal on Redis, with Redis gone and back', () => {
  it('refuses to list or clear (503) and keeps answering calls, says so once per outage without a secret, and recovers by itself', { timeout: 60_000 }, async () => {
    const server = await startRedis()
    const client = await connectRedis(server.url)
    const reported: string[] = []
    const journal = new RedisJournal({ client, size: 10, onError: (message) => reported.push(message) })
    const recordFailures = () => reported.filter((message) => message.includes('cannot record')).length
    /** Records until the listener has one more: Redis is back, and the live stream subscribed again. */
    const streamedAgain = async (seen: ReturnType<typeof collected>) => {
      const had = seen.items.length
      for (let n = 100; seen.items.length === had; n++) {
        journal.record(TENANT, call(n))
        await new Promise((resolve) => setTimeout(resolve, 50))
      }
    }
    try {
      const seen = collected()
      await subscribed(journal, TENANT, seen.listener)
      journal.record(TENANT, call(1))
      expect(await journal.list(TENANT)).toHaveLength(1)

      for (const outage of [1, 2]) {
        const lost = once(client, 'close')
        await server.halt()
        await lost
        for (let n = 2; n < 12; n++) expect(() => journal.record(TENANT, call(n, { requestBody: { key: KEY } }), { secret: KEY })).not.toThrow()
        await expect(journal.list(TENANT)).rejects.toBeInstanceOf(StoreWriteFailed)
        await expect(journal.clear(TENANT)).rejects.toBeInstanceOf(StoreWriteFailed)
        await new Promise((resolve) => setImmediate(resolve))
        expect(recordFailures()).toBe(outage)

        await server.restart()
        await streamedAgain(seen)
        expect((await journal.list(TENANT)).length).toBeGreaterThan(0)
      }
      for (const message of reported) {
        expect(message).not.toContain(KEY)
        expect(message).not.toContain(Buffer.from(TENANT).toString('base64url'))
      }
    } finally {
      await journal.close()
      client.disconnect()
      await server.stop()
    }
  })
})
