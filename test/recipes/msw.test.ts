// The msw recipe of docs/recipes.md, quoted from here: the official SDK, unchanged, answered in process.
import { Novu } from '@novu/api'
import { setupServer } from 'msw/node'
import { createNovuMock, type NovuMock } from 'novu-mock/msw'
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest'

// The code under test: your app's call to Novu through the SDK, at its default server URL.
async function markRead(novu: Novu, subscriberId: string, messageId: string): Promise<void> {
  await novu.subscribers.messages.markAllAs({ messageId, markAs: 'read' }, subscriberId)
}

const API_KEY = 'msw-recipe'
const MESSAGE = '64f200000000000000000001' // demo-subscriber-1's first message, unread in the seed

let mock: NovuMock
const server = setupServer()

beforeAll(async () => {
  mock = await createNovuMock() // baseUrl: https://api.novu.co unless told otherwise
  server.use(...mock.handlers)
  server.listen({ onUnhandledRequest: 'error' }) // nothing reaches the live service
})

beforeEach(async () => {
  await mock.tenant(API_KEY).reset()
  await mock.tenant(API_KEY).clearRequests()
})

afterAll(async () => {
  server.close()
  await mock.close()
})

it('marks the message read, with one call', async () => {
  await markRead(new Novu({ secretKey: API_KEY }), 'demo-subscriber-1', MESSAGE)

  await mock.tenant(API_KEY).verify({ operationId: 'markMessagesAs', count: 1, bodyMatches: { messageId: MESSAGE, markAs: 'read' } })
  const { messages } = await mock.tenant(API_KEY).state()
  expect(messages.find((message) => message._id === MESSAGE)?.read).toBe(true)
})

it('answers a fault rule as the server does: here, a dropped connection is a network error', async () => {
  await mock.tenant(API_KEY).fault({ match: { operationId: 'markMessagesAs' }, drop: true })
  await expect(markRead(new Novu({ secretKey: API_KEY, retryConfig: { strategy: 'none' } }), 'demo-subscriber-1', MESSAGE)).rejects.toThrow()
  const { messages } = await mock.tenant(API_KEY).state()
  expect(messages.find((message) => message._id === MESSAGE)?.read).toBe(false)
})
