// docs/recipes.md quotes this file: a test suite that starts the mock once, resets it before each test,
// verifies the calls its code made, and closes it at the end.
import { startMockServer, VerificationError, type MockServer, type Tenant } from 'novu-mock'
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest'

// The code under test: your app's call to Novu, pointed at a base URL.
async function markRead(baseUrl: string, apiKey: string, subscriberId: string, messageId: string): Promise<void> {
  const res = await fetch(`${baseUrl}/v1/subscribers/${subscriberId}/messages/mark-as`, {
    method: 'POST',
    headers: { Authorization: `ApiKey ${apiKey}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ messageId, markAs: 'read' }),
  })
  if (!res.ok) throw new Error(`mark-as answered ${res.status}`)
}

const API_KEY = 'vitest-recipe'
const MESSAGE = '64f200000000000000000001' // demo-subscriber-1's first message, unread in the seed

let mock: MockServer
let tenant: Tenant

beforeAll(async () => {
  mock = await startMockServer()
  tenant = mock.tenant(API_KEY)
})

// One call gives a clean tenant: the seed's records, no fault rules, an empty journal, no idempotency records.
beforeEach(() => tenant.reset())

afterAll(async () => {
  await mock.close()
})

it('marks the message read, with one call', async () => {
  await markRead(mock.url, API_KEY, 'demo-subscriber-1', MESSAGE)

  await tenant.verify({ operationId: 'markMessagesAs', count: 1, bodyMatches: { messageId: MESSAGE, markAs: 'read' } })
  const { messages } = await tenant.state()
  expect(messages.find((message) => message._id === MESSAGE)?.read).toBe(true)
})

it('answers 503 while a fault rule says so', async () => {
  await tenant.fault({ preset: 'unavailable' })
  await expect(markRead(mock.url, API_KEY, 'demo-subscriber-1', MESSAGE)).rejects.toThrow('mark-as answered 503')
})

it('starts from the seed again, with an empty journal and no fault rules', async () => {
  const { messages } = await tenant.state()
  expect(messages.find((message) => message._id === MESSAGE)?.read).toBe(false)
  await expect(tenant.verify({ operationId: 'markMessagesAs' })).rejects.toThrow(VerificationError)
  await markRead(mock.url, API_KEY, 'demo-subscriber-1', MESSAGE)
})
