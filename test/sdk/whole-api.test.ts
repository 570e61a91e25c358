// Every operation of Novu's document answered (issue 55): the official SDK resolves each call of its list without an SDKValidationError.
import type { Novu } from '@novu/api'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { MockServer } from '../../src/app/create-mock-server.ts'
import { startTestServer } from '../helpers/start-test-server.ts'
import { sdkClient } from './support.ts'

const SUBSCRIBER = 'sdk-subscriber-1'
const TOPIC = 'product-updates'

/** The SDK's calls of the list, by the SDK's method path, with what a test checks of each answer. */
const CALLS: [string, (novu: Novu) => Promise<unknown>, (result: unknown) => void][] = [
  ['trigger', (n) => n.trigger({ workflowId: 'welcome', to: SUBSCRIBER, transactionId: 'txn-sdk-1' }), (r) => expect(r).toMatchObject({ transactionId: 'txn-sdk-1' })],
  ['triggerBulk', (n) => n.triggerBulk({ events: [{ workflowId: 'welcome', to: SUBSCRIBER }] }), (r) => expect(Array.isArray(r)).toBe(true)],
  ['cancel', (n) => n.cancel('txn-sdk-1'), (r) => expect(typeof r).toBe('boolean')],
  ['subscribers.create', (n) => n.subscribers.create({ subscriberId: 'sdk-new', firstName: 'Ann' }), (r) => expect(r).toMatchObject({ subscriberId: 'sdk-new', firstName: 'Ann' })],
  ['subscribers.search', (n) => n.subscribers.search({ limit: 5 }), (r) => expect(r).toHaveProperty('data')],
  ['subscribers.patch', (n) => n.subscribers.patch({ lastName: 'Lovelace' }, 'sdk-new'), (r) => expect(r).toMatchObject({ subscriberId: 'sdk-new', lastName: 'Lovelace' })],
  ['subscribers.delete', (n) => n.subscribers.delete('sdk-new'), (r) => expect(r).toHaveProperty('acknowledged')],
  ['subscribers.credentials.update', (n) => n.subscribers.credentials.update({ providerId: 'slack', credentials: { webhookUrl: 'https://hooks.slack.com/x' } }, SUBSCRIBER), (r) => expect(r).toMatchObject({ subscriberId: SUBSCRIBER })],
  ['subscribers.credentials.delete', (n) => n.subscribers.credentials.delete(SUBSCRIBER, 'slack'), (r) => expect(r).toBeUndefined()],
  ['subscribers.preferences.list', (n) => n.subscribers.preferences.list({ subscriberId: SUBSCRIBER }), (r) => expect(r).toHaveProperty('global')],
  ['subscribers.notifications.feed', (n) => n.subscribers.notifications.feed({ subscriberId: SUBSCRIBER }), (r) => expect(r).toHaveProperty('data')],
  ['topics.create', (n) => n.topics.create({ key: TOPIC, name: 'Product updates' }), (r) => expect(r).toMatchObject({ key: TOPIC, name: 'Product updates' })],
  ['topics.list', (n) => n.topics.list({}), (r) => expect(r).toHaveProperty('data')],
  ['topics.subscriptions.create', (n) => n.topics.subscriptions.create({ subscriptions: [SUBSCRIBER] }, TOPIC), (r) => expect(r).toHaveProperty('data')],
  ['integrations.list', (n) => n.integrations.list(), (r) => expect(Array.isArray(r)).toBe(true)],
  ['integrations.create', (n) => n.integrations.create({ providerId: 'sendgrid', channel: 'email', name: 'SendGrid' }), (r) => expect(r).toMatchObject({ providerId: 'sendgrid', channel: 'email', name: 'SendGrid' })],
  ['integrations.listActive', (n) => n.integrations.listActive(), (r) => expect(Array.isArray(r)).toBe(true)],
  ['messages.retrieve', (n) => n.messages.retrieve({}), (r) => expect(r).toHaveProperty('data')],
  ['notifications.list', (n) => n.notifications.list({}), (r) => expect(r).toHaveProperty('data')],
  ['workflows.list', (n) => n.workflows.list({}), (r) => expect(r).toHaveProperty('workflows')],
  ['environments.list', (n) => n.environments.list(), (r) => expect(Array.isArray(r)).toBe(true)],
]

for (const envelope of [false, true]) {
  describe(`the official SDK across Novu's API (${envelope ? 'enveloped' : 'bare'})`, () => {
    let server: MockServer
    // One tenant for the whole list, in order: the subscribers' and the triggers' calls keep state
    // (docs/behaviour.md §11), so each sees what the ones before it made (the trigger its subscriber).
    let novu: Novu
    beforeAll(async () => {
      server = await startTestServer({ envelope })
      novu = sdkClient(server.url).novu
    })
    afterAll(() => server.close())

    it.each(CALLS)('%s resolves, its answer read by the SDK', async (_name, call, check) => {
      const response = (await call(novu)) as { result: unknown } | undefined
      check(response?.result)
    })
  })
}
