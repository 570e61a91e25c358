import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { MockServer } from '../../src/app/create-mock-server.ts'
import { MAX_SUBSCRIBERS, MAX_SUBSCRIBERS_PER_TENANT } from '../../src/journal/request-journal.ts'
import { openEvents, type EventReader, type StreamEvent } from '../helpers/event-stream.ts'
import { expectContract } from '../helpers/expect-contract.ts'
import { rawRequest } from '../helpers/raw-request.ts'
import { freshTenant, startTestServer } from '../helpers/start-test-server.ts'

describe('GET /__admin/events: at most 16 streams per tenant (docs/behaviour.md §6)', () => {
  let mock: MockServer
  const streams: EventReader[] = []
  beforeAll(async () => {
    mock = await startTestServer()
  })
  afterAll(async () => {
    streams.forEach((events) => events.close())
    await mock.close()
  })

  it('refuses a tenant its 17th stream with a 503, while every other tenant still opens one', async () => {
    expect(MAX_SUBSCRIBERS_PER_TENANT).toBe(16)
    const greedy = freshTenant()
    for (let i = 0; i < 16; i++) streams.push(await openEvents(`${mock.url}/__admin/events`, greedy))
    expect(streams.map((events) => events.status)).toEqual(Array(16).fill(200))
    const seventeenth = await rawRequest(`${mock.url}/__admin/events`, { headers: greedy })
    expect(seventeenth.status).toBe(503)
    expect(seventeenth.headers['retry-after']).toBe('5')
    await expectContract('streamEvents', seventeenth, 'admin')

    const other = freshTenant()
    const theirs = await openEvents(`${mock.url}/__admin/events`, other)
    streams.push(theirs)
    expect(theirs.status).toBe(200)
    expect((await theirs.next())?.event).toBe('ready')
    await rawRequest(`${mock.url}/v2/subscribers/demo-subscriber-1`, { headers: other })
    expect((await theirs.next())?.event).toBe('request')

    // A place freed by the greedy tenant is its own again.
    streams.shift()!.close()
    const deadline = Date.now() + 10_000
    let again = await openEvents(`${mock.url}/__admin/events`, greedy)
    while (again.status !== 200 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50))
      again = await openEvents(`${mock.url}/__admin/events`, greedy)
    }
    streams.push(again)
    expect(again.status).toBe(200)
  })
})

describe('GET /__admin/events: at the server-wide cap, the busiest key gives way (docs/behaviour.md §6)', () => {
  it("opens an 8th key's stream after 7 keys asked for 16 each, closing a busiest key's oldest with event: closed", async () => {
    expect(MAX_SUBSCRIBERS).toBe(100)
    const mock = await startTestServer()
    const streams: EventReader[] = []
    try {
      await sevenKeysThenAnEighth(mock, streams)
    } finally {
      streams.forEach((events) => events.close())
      await mock.close()
    }
  }, 60_000)
})

/** Seven keys ask for 16 streams each, then an eighth key for one: what each got, and what gave way. */
async function sevenKeysThenAnEighth(mock: MockServer, streams: EventReader[]): Promise<void> {
  const keys = Array.from({ length: 7 }, () => freshTenant())
  const byKey = new Map<{ Authorization: string }, EventReader[]>()
  for (const key of keys) {
    const own: EventReader[] = []
    for (let i = 0; i < MAX_SUBSCRIBERS_PER_TENANT; i++) own.push(await openEvents(`${mock.url}/__admin/events`, key))
    byKey.set(key, own)
    streams.push(...own)
  }
  // The 7th key's streams past the cap each took a place of a key holding more, until it held as
  // many as the busiest (15): its 16th is refused.
  const statuses = streams.map((events) => events.status)
  expect(statuses.slice(0, -1)).toEqual(Array(7 * MAX_SUBSCRIBERS_PER_TENANT - 1).fill(200))
  expect(statuses.at(-1)).toBe(503)

  const eighth = await openEvents(`${mock.url}/__admin/events`, freshTenant())
  streams.push(eighth)
  expect(eighth.status).toBe(200)
  expect((await eighth.next())?.event).toBe('ready')

  // 12 streams gave way (11 to the 7th key, 1 to the 8th), each the oldest its key still had open.
  const closedOf = (events: EventReader) => events.text().includes('event: closed')
  const deadline = Date.now() + 10_000
  while (streams.filter(closedOf).length < 12 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50))
  expect(streams.filter(closedOf)).toHaveLength(12)
  for (const own of byKey.values()) {
    const closed = own.map(closedOf)
    expect(closed).toEqual([...closed].sort((a, b) => Number(b) - Number(a)))
  }
  const closedStream = streams.find(closedOf)!
  const events: (StreamEvent | undefined)[] = []
  for (let next = await closedStream.next(); next; next = await closedStream.next(500)) events.push(next)
  expect(events.map((event) => event?.event)).toEqual(['ready', 'closed'])
  expect(JSON.parse(events[1]!.data)).toEqual({ reason: expect.stringContaining('100 event streams') })
  expect(byKey.get(keys[6]!)!.some(closedOf)).toBe(false)
}
