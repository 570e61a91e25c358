import type { Novu } from '@novu/api'
import type { MessageMarkAsRequestDtoMarkAs as MarkAs } from '@novu/api/models/components/index.js'
import { ErrorDto, SDKError, SDKValidationError, ValidationErrorDto } from '@novu/api/models/errors/index.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AppOptions } from '../../src/app/config.ts'
import type { MockServer } from '../../src/app/create-mock-server.ts'
import { readState } from '../helpers/read-state.ts'
import { startTestServer } from '../helpers/start-test-server.ts'
import { addFault, lastSent, sdkClient, sdkError } from './support.ts'
import { ADA, adaMessage, INTEGRATIONS } from '../helpers/well-known.ts'

const MAILGUN = INTEGRATIONS.mailgun
const M01 = adaMessage(1)

/** One call of each operation that succeeds on the seed, keyed by the document's operationId. */
const CALLS: Record<string, (novu: Novu) => Promise<unknown>> = {
  upsertSubscriberCredentials: (n) =>
    n.subscribers.credentials.append({ providerId: 'fcm', credentials: { deviceTokens: ['x'] } }, ADA),
  getSubscriber: (n) => n.subscribers.retrieve(ADA),
  setPrimaryIntegration: (n) => n.integrations.setAsPrimary(MAILGUN),
  listChannelConnections: (n) => n.channelConnections.list({}),
  markMessagesAs: (n) => n.subscribers.messages.markAllAs({ messageId: M01, markAs: 'read' }, ADA),
}
const ALL = Object.keys(CALLS)
const WRITES = ['upsertSubscriberCredentials', 'setPrimaryIntegration', 'markMessagesAs']

/**
 * The SDK leaves 429 and 503 to its generic error: its document types them as strings. A 503 body
 * is one; a 429 body is the live service's ErrorDto, its wait in `Retry-After` and `RateLimit-Reset`.
 */
async function genericError(call: Promise<unknown>, status: 429 | 503): Promise<SDKError> {
  const error = await sdkError(call, SDKError, status)
  expect(error).not.toBeInstanceOf(ErrorDto)
  if (status === 503) expect(JSON.parse(error.body)).toBe('Please wait some time, then try again.')
  else {
    expect(JSON.parse(error.body)).toMatchObject({ statusCode: 429, message: 'API rate limit exceeded', timestamp: expect.any(String) })
    expect(error.headers.get('retry-after')).toBe(error.headers.get('ratelimit-reset'))
  }
  expect(error.message).toMatch(new RegExp(`^API error occurred: Status ${status}`))
  expect(Number(error.headers.get('retry-after'))).toBeGreaterThan(0)
  return error
}

export function errorsSuite(mode: string, options: AppOptions): void {
  describe(`errors through @novu/api (${mode})`, () => {
    let server: MockServer
    beforeAll(async () => {
      server = await startTestServer(options)
    })
    afterAll(() => server.close())

    async function errorDto(call: (novu: Novu) => Promise<unknown>, status: number, message: string, path: string) {
      const error = await sdkError(call(sdkClient(server.url).novu), ErrorDto, status)
      expect(error.message).toBe(message)
      expect(error.data$).toMatchObject({ statusCode: status, message, path, timestamp: expect.any(String) })
    }

    it('400 ErrorDto: credentials for an unknown subscriber', async () => {
      const append = (n: Novu) => n.subscribers.credentials.append({ providerId: 'fcm', credentials: {} }, 'nobody')
      await errorDto(append, 400, 'SubscriberId: nobody not found', '/v1/subscribers/nobody/credentials')
    })

    it('400 ErrorDto: credentials for a provider with no active integration', async () => {
      const client = sdkClient(server.url)
      const { environmentId } = (await client.novu.subscribers.retrieve(ADA)).result
      const error = await sdkError(
        client.novu.subscribers.credentials.append({ providerId: 'apns', credentials: { deviceTokens: ['a'] } }, ADA),
        ErrorDto,
        400,
      )
      expect(error.message).toBe(`Subscribers environment (${environmentId}) do not have active apns integration.`)
    })

    it('400 ErrorDto: the other rules of the operations', async () => {
      const push = INTEGRATIONS.fcm
      const setPush = (n: Novu) => n.integrations.setAsPrimary(push)
      await errorDto(setPush, 400, 'Channel push does not support primary', `/v1/integrations/${push}/set-primary`)
      const bothCursors = (n: Novu) => n.channelConnections.list({ after: 'a', before: 'b' })
      const message = 'Cannot specify both "before" and "after" cursors at the same time.'
      await errorDto(bothCursors, 400, message, '/v1/channel-connections?after=a&before=b')
      const tooMany = (n: Novu) =>
        n.subscribers.credentials.append({ providerId: 'fcm', credentials: { deviceTokens: Array.from({ length: 100 }, (_, i) => `t${i}`) } }, ADA)
      const limit = 'Device tokens limit exceeded. Maximum allowed tokens per subscriber channel is 100, but got 101 tokens.'
      await errorDto(tooMany, 400, limit, `/v1/subscribers/${ADA}/credentials`)
    })

    it.each([
      ['""', ''],
      ['[]', []],
      ['a comma list', `${M01},${adaMessage(2)}`],
    ] as const)('422 ValidationErrorDto: markAllAs with messageId %s', async (_name, messageId) => {
      const call = sdkClient(server.url).novu.subscribers.messages.markAllAs({ messageId: messageId as string, markAs: 'read' }, ADA)
      const error = await sdkError(call, ValidationErrorDto, 422)
      expect(error.message).toBe('Validation Error')
      expect(error.errors).toEqual({
        general: { messages: ['messageId must be a valid MongoDB ObjectId or an array of valid MongoDB ObjectIds'], value: 'No Value Recorded' },
      })
    })

    it('404 ErrorDto: retrieve and mark-as for an unknown subscriber', async () => {
      await errorDto((n) => n.subscribers.retrieve('nobody'), 404, 'Subscriber: nobody was not found', '/v2/subscribers/nobody')
      const mark = (n: Novu) => n.subscribers.messages.markAllAs({ messageId: M01, markAs: 'seen' }, 'nobody')
      await errorDto(mark, 404, 'Subscriber nobody not found', '/v1/subscribers/nobody/messages/mark-as')
    })

    it('404 SDKError: set-primary of an unknown integration (the SDK has no body schema for it)', async () => {
      const id = '64f1000000000000000000ff'
      const error = await sdkError(sdkClient(server.url).novu.integrations.setAsPrimary(id), SDKError, 404)
      expect(error).not.toBeInstanceOf(ErrorDto)
      expect(JSON.parse(error.body)).toMatchObject({ statusCode: 404, message: `Integration with id ${id} not found` })
    })

    it.each(WRITES)('409 ErrorDto on %s: the idempotency-in-progress preset, with the SDK’s own key', async (operationId) => {
      const client = sdkClient(server.url)
      await addFault(server.url, client, { preset: 'idempotency-in-progress', match: { operationId }, times: 1 })
      const before = await readState(server.url, client.auth)
      const error = await sdkError(CALLS[operationId]!(client.novu), ErrorDto, 409)
      const key = lastSent(client).idempotencyKey
      expect(key).toEqual(expect.any(String))
      expect(error.message).toBe(`Request with key "${key}" is currently being processed. Please retry after 1 second`)
      expect(error.headers.get('retry-after')).toBe('1')
      expect(await readState(server.url, client.auth)).toEqual(before)
      await CALLS[operationId]!(client.novu) // the rule is spent: the next call goes through
    })

    it('422 ValidationErrorDto: set-primary with an id that is not a mongodb id', async () => {
      const error = await sdkError(sdkClient(server.url).novu.integrations.setAsPrimary('nope'), ValidationErrorDto, 422)
      expect(error.message).toBe('Validation Error')
      expect(error.errors['integrationId']).toEqual({ messages: ['integrationId must be a mongodb id'], value: 'nope' })
    })

    it('422 ValidationErrorDto: list parameters the document refuses, every one listed', async () => {
      const call = sdkClient(server.url).novu.channelConnections.list({ limit: 500, orderBy: 'priority' })
      const error = await sdkError(call, ValidationErrorDto, 422)
      expect(error.errors).toEqual({
        general: {
          messages: ['limit must not be greater than 100', 'orderBy must be one of the following values: createdAt, updatedAt'],
          value: 'No Value Recorded',
        },
      })
    })

    it('422 ValidationErrorDto: an idempotency key reused for another body', async () => {
      const client = sdkClient(server.url)
      await client.novu.subscribers.messages.markAllAs({ messageId: M01, markAs: 'read' }, ADA, 'sdk-reused')
      const other = client.novu.subscribers.messages.markAllAs({ messageId: M01, markAs: 'seen' }, ADA, 'sdk-reused')
      const error = await sdkError(other, ValidationErrorDto, 422)
      const message = 'Request with key "sdk-reused" is being reused for a different body'
      expect(error.message).toBe(message)
      expect(error.errors['general']?.messages).toEqual([message])
    })

    // Values the SDK's enums list and the interface does not: the mock follows the interface, but
    // for providerId, where it takes Novu 3.19's values too (docs/behaviour.md §2.1, §2.4).
    it.each([
      ['channel', 'tool', (n: Novu) => n.channelConnections.list({ channel: 'tool' }), /^channel must be one of the following values: in_app, email, sms, chat, push$/],
    ] as const)('422 ValidationErrorDto: the SDK-only %s %s', async (_field, _value, call, message) => {
      const error = await sdkError(call(sdkClient(server.url).novu), ValidationErrorDto, 422)
      expect(Object.keys(error.errors)).toEqual(['general'])
      expect(error.errors['general']).toMatchObject({ value: 'No Value Recorded', messages: [expect.stringMatching(message)] })
    })

    it('takes the providerIds Novu 3.19 adds, which the SDK sends: telegram, novu-sms', async () => {
      const { novu } = sdkClient(server.url)
      const error = await sdkError(novu.subscribers.credentials.append({ providerId: 'telegram', credentials: {} }, ADA), ErrorDto, 400)
      expect(error.message).toMatch(/do not have active telegram integration\.$/)
      await expect(novu.channelConnections.list({ providerId: 'novu-sms' })).resolves.toMatchObject({ result: { data: [] } })
    })

    it('a markAs outside the four values never leaves the SDK (its closed enum refuses it)', async () => {
      const client = sdkClient(server.url)
      // The type allows only the four values; the cast is the point of the test.
      const call = client.novu.subscribers.messages.markAllAs({ messageId: M01, markAs: 'bogus' as MarkAs }, ADA)
      await expect(call).rejects.toBeInstanceOf(SDKValidationError)
      expect(client.sent).toEqual([])
    })

    it.each(ALL)('429 SDKError on %s: the rate-limited preset', async (operationId) => {
      const client = sdkClient(server.url)
      await addFault(server.url, client, { preset: 'rate-limited', match: { operationId }, times: 1 })
      const before = await readState(server.url, client.auth)
      await genericError(CALLS[operationId]!(client.novu), 429)
      expect(await readState(server.url, client.auth)).toEqual(before)
    })

    it.each(ALL)('503 SDKError on %s: the unavailable preset', async (operationId) => {
      const client = sdkClient(server.url)
      await addFault(server.url, client, { preset: 'unavailable', match: { operationId }, times: 1 })
      const before = await readState(server.url, client.auth)
      await genericError(CALLS[operationId]!(client.novu), 503)
      expect(await readState(server.url, client.auth)).toEqual(before)
      await CALLS[operationId]!(client.novu)
    })
  })

  describe(`errors of server options through @novu/api (${mode})`, () => {
    it('401 ErrorDto: strict mode refuses another key', async () => {
      const allowed = `sdk-${crypto.randomUUID()}`
      const server = await startTestServer({ ...options, apiKeys: [allowed] })
      try {
        const error = await sdkError(sdkClient(server.url).novu.subscribers.retrieve(ADA), ErrorDto, 401)
        expect(error.message).toBe('API Key not found')
        const { result } = await sdkClient(server.url, allowed).novu.subscribers.retrieve(ADA)
        expect(result.firstName).toBe('Ada')
      } finally {
        await server.close()
      }
    })

    it('429 SDKError: the third call within the window, at 1 per 60 s (burst 2)', async () => {
      const server = await startTestServer({ ...options, rateLimit: { limit: 1, windowSeconds: 60 } })
      try {
        const { novu } = sdkClient(server.url)
        expect((await novu.subscribers.retrieve(ADA)).result.lastName).toBe('Lovelace')
        const second = await novu.subscribers.messages.markAllAs({ messageId: M01, markAs: 'read' }, ADA)
        expect(second.result[0]).toMatchObject({ id: M01, read: true })
        const error = await genericError(novu.channelConnections.list({}), 429)
        expect(error.headers.get('ratelimit-remaining')).toBe('0')
      } finally {
        await server.close()
      }
    })
  })
}
