import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { MockServer } from '../../src/app/create-mock-server.ts'
import { expectContract } from '../helpers/expect-contract.ts'
import { rawRequest } from '../helpers/raw-request.ts'
import { startTestServer } from '../helpers/start-test-server.ts'

/** Enough rows that making them takes seconds here: long enough for many calls of another tenant. */
const ROWS = 40_000

describe('a large tenant is made in slices (docs/behaviour.md §6)', () => {
  let mock: MockServer
  beforeAll(async () => {
    mock = await startTestServer()
  })
  afterAll(() => mock.close())

  it("answers another tenant's calls while POST /__admin/tenants makes its rows", async () => {
    const bystander = { Authorization: 'ApiKey bystander' }
    const events: string[] = []
    const creating = rawRequest(`${mock.url}/__admin/tenants`, {
      method: 'POST',
      headers: { Authorization: 'ApiKey creator', 'Content-Type': 'application/json' },
      body: JSON.stringify({ apiKey: 'large-tenant', subscribers: ROWS, channelConnections: ROWS, messages: ROWS }),
    }).then((answer) => {
      events.push('created')
      return answer
    })
    // Calls made one after another while the tenant is made: with the work in one piece, at most
    // the first would be answered before it.
    let done = false
    void creating.finally(() => (done = true))
    while (!done) {
      const read = await rawRequest(`${mock.url}/v2/subscribers/demo-subscriber-1`, { headers: bystander })
      expect(read.status).toBe(200)
      if (!done) events.push('read')
    }
    const created = await creating
    expect(created.status).toBe(201)
    await expectContract('createTenant', created, 'admin')
    expect((created.body as { counts: unknown }).counts).toEqual({ subscribers: ROWS, integrations: 9, channelConnections: ROWS, messages: ROWS })
    expect(events.indexOf('created')).toBeGreaterThan(3)
    const page = await rawRequest(`${mock.url}/v1/channel-connections?limit=1`, { headers: { Authorization: 'ApiKey large-tenant' } })
    expect((page.body as { totalCount: number }).totalCount).toBe(ROWS)
  }, 180_000)
})
