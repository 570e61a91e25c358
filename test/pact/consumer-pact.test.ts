import { mkdtempSync, readdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { MatchersV3, PactV4 } from '@pact-foundation/pact'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { MockServer } from '../../src/app/create-mock-server.ts'
import { startTestServer } from '../helpers/start-test-server.ts'
import { ADA, adaMessage, GRACE, INTEGRATIONS } from '../helpers/well-known.ts'
import { verify } from './helpers.ts'

const { like, eachLike, regex, integer, boolean, string } = MatchersV3
const ISO = '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?Z$'
const VERIFY_TIMEOUT = 120_000

/**
 * A team's consumer test, written with Pact's own DSL against Pact's stub (which answers whatever
 * the test says), then the pact it wrote verified against the mock: the expectations held to how
 * the service behaves.
 */
async function writeConsumerPact(dir: string, answer: { lastName: string }): Promise<string> {
  const pact = new PactV4({ consumer: 'notifications-app', provider: 'novu', dir, logLevel: 'error' })
  const ask = (url: string, path: string, init: RequestInit = {}) =>
    fetch(`${url}${path}`, { ...init, headers: { Authorization: 'ApiKey consumer-test-key', 'Content-Type': 'application/json', ...init.headers } })

  await pact
    .addInteraction()
    .given('subscriber demo-subscriber-2 exists')
    .uponReceiving('a request for Grace')
    .withRequest('GET', `/v2/subscribers/${GRACE}`)
    .willRespondWith(200, (builder) => builder.jsonBody({ _id: string('64f000000000000000000002'), subscriberId: GRACE, firstName: like('Grace'), lastName: answer.lastName, email: like('grace@example.com') }))
    .executeTest(async ({ url }) => expect((await ask(url, `/v2/subscribers/${GRACE}`)).status).toBe(200))

  await pact
    .addInteraction()
    .given('integration mailgun exists')
    .uponReceiving('making mailgun the primary email integration')
    .withRequest('POST', `/v1/integrations/${INTEGRATIONS.mailgun}/set-primary`)
    .willRespondWith(200, (builder) => builder.jsonBody({ _id: INTEGRATIONS.mailgun, providerId: 'mailgun', channel: 'email', primary: true, active: boolean(true), identifier: like('mailgun') }))
    .executeTest(async ({ url }) => expect((await ask(url, `/v1/integrations/${INTEGRATIONS.mailgun}/set-primary`, { method: 'POST' })).status).toBe(200))

  await pact
    .addInteraction()
    .given('subscriber demo-subscriber-1 has unread messages')
    .uponReceiving('marking a message read')
    .withRequest('POST', `/v1/subscribers/${ADA}/messages/mark-as`, (builder) => builder.jsonBody({ messageId: [adaMessage(1)], markAs: 'read' }))
    .willRespondWith(201, (builder) => builder.jsonBody(eachLike({ _id: adaMessage(1), read: true, seen: true, lastReadDate: regex(ISO, '2026-01-01T00:00:00.000Z') })))
    .executeTest(async ({ url }) => {
      const res = await ask(url, `/v1/subscribers/${ADA}/messages/mark-as`, { method: 'POST', body: JSON.stringify({ messageId: [adaMessage(1)], markAs: 'read' }) })
      expect(res.status).toBe(201)
    })

  await pact
    .addInteraction()
    .uponReceiving('a page of channel connections')
    .withRequest('GET', '/v1/channel-connections', (builder) => builder.query({ limit: '2' }))
    .willRespondWith(200, (builder) => builder.jsonBody({ data: eachLike({ identifier: like('chconn_1'), channel: like('chat') }), totalCount: integer(2) }))
    .executeTest(async ({ url }) => expect((await ask(url, '/v1/channel-connections?limit=2')).status).toBe(200))

  return join(dir, readdirSync(dir).find((name) => name.endsWith('.json'))!)
}

let server: MockServer
beforeAll(async () => {
  process.env.PACT_DO_NOT_TRACK = 'true'
  server = await startTestServer()
})
afterAll(() => server?.close())

describe("a team's consumer pact, written with Pact's DSL, verified against the mock", () => {
  it('verifies the calls on the well-known records, hand-written states set up as the seed', async () => {
    const file = await writeConsumerPact(mkdtempSync(join(tmpdir(), 'novu-mock-consumer-')), { lastName: 'Hopper' })
    await expect(verify(server, [file], 'verifier-key')).resolves.toBeDefined()
  }, VERIFY_TIMEOUT)

  it('fails when the consumer expects what the service does not answer', async () => {
    const file = await writeConsumerPact(mkdtempSync(join(tmpdir(), 'novu-mock-consumer-')), { lastName: 'Lovelace' })
    await expect(verify(server, [file], 'verifier-key')).rejects.toThrow()
  }, VERIFY_TIMEOUT)
})
