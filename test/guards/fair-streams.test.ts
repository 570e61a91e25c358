import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { MockServer } from '../../src/app/create-mock-server.ts'
import { MAX_SUBSCRIBERS_PER_TENANT } from '../../src/journal/request-journal.ts'
import { openEvents, type EventReader } from '../helpers/event-stream.ts'
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
