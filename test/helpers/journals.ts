import { afterAll, afterEach, beforeAll } from 'vitest'
import type { JournalCall, JournalEvent, JournalListener, JournalPort, ProviderState, SubscribeOptions } from '../../src/journal/journal-port.ts'
import { RedisJournal, type RedisJournalOptions } from '../../src/redis/redis-journal.ts'
import { RequestJournal } from '../../src/journal/request-journal.ts'
import { connectRedis, type RedisClient } from '../../src/redis/redis-connection.ts'
import { redisTestsSkipped, startRedis, type RedisServer } from './redis-server.ts'

/** The journal's adapters its unit tests run against; on Redis only where redis-server is (vitest.config.ts says so once). */
type JournalKind = 'in memory' | 'on Redis'
export const JOURNAL_KINDS: readonly JournalKind[] = redisTestsSkipped() ? ['in memory'] : ['in memory', 'on Redis']

export type TestJournal = JournalPort & { readonly subscribers: number }
type MakeJournal = (size: number, maxSubscribers?: number) => Promise<TestJournal>

/** A journaled GET of one subscriber, as the journal's unit tests record it, with `fields` over it. */
export const subscriberCall = (fields: Partial<JournalCall> = {}): JournalCall => ({
  time: '2026-11-23T10:00:00.000Z',
  operationId: 'getSubscriber',
  method: 'GET',
  path: '/v2/subscribers/s',
  url: '/v2/subscribers/s',
  status: 200,
  durationMs: 1,
  ...fields,
})

/** A provider state already written as JSON, as a call's read capture gives it to the journal. */
export const stateOf = (json: string): ProviderState => ({ json: () => json, jsonLength: () => json.length })

/**
 * A maker of journals of `kind`, for the tests of the calling `describe`: on Redis, each on a
 * client of its own (an instance of its own) of one redis-server started here, emptied after each test.
 */
export function journalsOf(kind: JournalKind): MakeJournal {
  if (kind === 'in memory') return async (size, maxSubscribers) => new RequestJournal(size, maxSubscribers)
  const redis = redisForTests()
  return (size, maxSubscribers) => redis.journal({ size, maxSubscribers })
}

/** A redis-server for the calling `describe`, with a client per instance; what they opened is closed after each test. */
export function redisForTests(): { client(): Promise<RedisClient>; journal(options: Omit<RedisJournalOptions, 'client'>): Promise<RedisJournal> } {
  let server: RedisServer | undefined
  const clients: RedisClient[] = []
  const journals: RedisJournal[] = []
  beforeAll(async () => {
    server = await startRedis()
  })
  afterEach(async () => {
    await Promise.all(journals.splice(0).map((journal) => journal.close()))
    const opened = clients.splice(0)
    await opened[0]?.flushall()
    opened.forEach((client) => client.disconnect())
  })
  afterAll(() => server?.stop())
  const client = async () => {
    const opened = await connectRedis(server!.url)
    clients.push(opened)
    return opened
  }
  return {
    client,
    async journal(options) {
      const journal = new RedisJournal({ ...options, client: await client() })
      journals.push(journal)
      return journal
    },
  }
}

/** Subscribes, and answers once the subscription is in place (its `ready`): undefined at the bound. */
export async function subscribed(journal: JournalPort, tenant: string, listener: JournalListener, options: SubscribeOptions = {}): Promise<(() => void) | undefined> {
  let stop: (() => void) | undefined
  await new Promise<void>((ready) => {
    stop = journal.subscribe(tenant, listener, { ...options, ready })
    if (!stop) ready()
  })
  return stop
}

/** A listener that keeps what it is handed (as `read` makes it) and lets a test wait for so many. */
export function collected<T = JournalEvent>(read: (event: JournalEvent) => T = (event) => event as T) {
  const items: T[] = []
  let wake: (() => void) | undefined
  return {
    items,
    listener: (event: JournalEvent) => {
      items.push(read(event))
      wake?.()
    },
    /** Resolves with the items once there are `count` (the test's own timeout bounds the wait). */
    async until(count: number): Promise<T[]> {
      while (items.length < count) await new Promise<void>((resolve) => (wake = resolve))
      return items
    },
  }
}
