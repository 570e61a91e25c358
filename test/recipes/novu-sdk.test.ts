// docs/recipes.md quotes this file: the official SDK, @novu/api, pointed at the mock.
import { Novu } from '@novu/api'
import { SDKError } from '@novu/api/models/errors/index.js'
import { startMockServer, type MockServer } from 'novu-mock'
import { afterAll, beforeAll, expect, it } from 'vitest'

let mock: MockServer

beforeAll(async () => {
  mock = await startMockServer()
})

afterAll(async () => {
  await mock.close()
})

// Each secret key is a tenant of its own, seeded alike: tests that use different keys never meet.
const novuFor = (secretKey: string) =>
  // Without `strategy: 'none'` the SDK retries 408, 409, 429 and 5xx answers for up to an hour.
  new Novu({ serverURL: mock.url, secretKey, retryConfig: { strategy: 'none' } })

it('registers a device token through the SDK', async () => {
  const novu = novuFor('sdk-recipe-token')
  await novu.subscribers.credentials.append({ providerId: 'fcm', credentials: { deviceTokens: ['device-2'] } }, 'demo-subscriber-1')

  const tenant = mock.tenant('sdk-recipe-token')
  await tenant.verify({ operationId: 'upsertSubscriberCredentials', count: 1 })
  const ada = (await tenant.state()).subscribers.find((subscriber) => subscriber.subscriberId === 'demo-subscriber-1')
  expect(ada?.channels?.find((channel) => channel.providerId === 'fcm')?.credentials.deviceTokens).toEqual(['fcm-token-ada-1', 'device-2'])
})

it('sees a 503 when the mock is told to fail', async () => {
  const novu = novuFor('sdk-recipe-fault')
  await mock.tenant('sdk-recipe-fault').fault({ preset: 'unavailable', match: { operationId: 'getSubscriber' }, times: 1 })

  const failure = await novu.subscribers.retrieve('demo-subscriber-1').catch((error: unknown) => error)
  expect(failure).toBeInstanceOf(SDKError) // the SDK has no body schema for 503
  expect((failure as SDKError).statusCode).toBe(503)
  await expect(novu.subscribers.retrieve('demo-subscriber-1')).resolves.toMatchObject({ result: { subscriberId: 'demo-subscriber-1' } })
})
