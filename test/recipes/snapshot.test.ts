// docs/recipes.md quotes this file: a snapshot test of an answer, stable because the clock is frozen.
import { startMockServer, type MockServer } from 'novu-mock'
import { afterAll, beforeAll, expect, it } from 'vitest'

let mock: MockServer

beforeAll(async () => {
  // Every tenant starts frozen at this instant: every `updatedAt` and `timestamp` is the same on every run.
  mock = await startMockServer({ clock: '2025-01-01T00:00:00.000Z' })
})

afterAll(async () => {
  await mock.close()
})

const API_KEY = 'snapshot-recipe'

it('answers a credentials upsert exactly as it did last time', async () => {
  await mock.tenant(API_KEY).reset() // the seed's records, and the clock back at 2025-01-01
  const res = await fetch(`${mock.url}/v1/subscribers/demo-subscriber-2/credentials`, {
    method: 'PATCH',
    headers: { Authorization: `ApiKey ${API_KEY}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ providerId: 'slack', credentials: { webhookUrl: 'https://hooks.slack.com/services/T0/B0/x' } }),
  })
  expect(res.status).toBe(200)
  // Written on the first run; compared byte for byte on every run after it.
  await expect(await res.text()).toMatchFileSnapshot('./answers/grace-slack-upsert.json')
})

it('lets the test move time: a day later, answers are stamped a day later', async () => {
  const tenant = mock.tenant(API_KEY)
  await tenant.reset()
  await tenant.clock.advance(24 * 60 * 60 * 1000)
  const res = await fetch(`${mock.url}/v2/subscribers/nobody`, { headers: { Authorization: `ApiKey ${API_KEY}` } })
  expect(await res.json()).toMatchObject({ statusCode: 404, timestamp: '2025-01-02T00:00:00.000Z' })
})
