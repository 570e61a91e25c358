import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Verifier } from '@pact-foundation/pact'
import request from 'supertest'
import { expect } from 'vitest'
import type { MockServer } from '../../src/app/create-mock-server.ts'
import { expectContract } from '../helpers/expect-contract.ts'
import { ADA, adaMessage, GRACE, graceMessage, INTEGRATIONS } from '../helpers/well-known.ts'

// Pact's tools send usage data unless told not to; the tests run with no network.
process.env.PACT_DO_NOT_TRACK = 'true'

export type Auth = { Authorization: string }
// `any`: the tests walk the JSON of many interaction shapes, and a failing walk fails the test anyway.
export type Pact = { interactions: Array<Record<string, any>> } & Record<string, unknown>

/** A scripted run: the five operations, several calls of each, writes (some keyed) included; each answer's status checked. */
export async function scriptedCalls(server: { url: string }, auth: Auth): Promise<void> {
  const on = () => request(server.url)
  const calls: Array<[request.Test, number]> = [
    [on().get(`/v2/subscribers/${ADA}`).set(auth), 200],
    [on().get(`/v2/subscribers/${GRACE}`).set(auth), 200],
    [on().get('/v1/channel-connections?limit=3').set(auth), 200],
    [on().get('/v1/channel-connections?limit=2&orderDirection=ASC').set(auth), 200],
    [on().patch(`/v1/subscribers/${GRACE}/credentials`).set(auth).set('idempotency-key', 'key-of-a-write-1').send({ providerId: 'fcm', credentials: { deviceTokens: ['t-1'] } }), 200],
    [on().patch(`/v1/subscribers/${ADA}/credentials`).set(auth).send({ providerId: 'fcm', credentials: { deviceTokens: ['t-2', 't-3'] } }), 200],
    [on().get(`/v2/subscribers/${GRACE}`).set(auth), 200],
    [on().post(`/v1/integrations/${INTEGRATIONS.mailgun}/set-primary`).set(auth), 200],
    [on().post(`/v1/integrations/${INTEGRATIONS.twilio}/set-primary`).set(auth).set('idempotency-key', 'key-of-a-write-2'), 200],
    [on().post(`/v1/integrations/${INTEGRATIONS.sendgrid}/set-primary`).set(auth), 200],
    [on().post(`/v1/subscribers/${ADA}/messages/mark-as`).set(auth).send({ messageId: [adaMessage(1), adaMessage(2)], markAs: 'read' }), 201],
    [on().post(`/v1/subscribers/${ADA}/messages/mark-as`).set(auth).send({ messageId: adaMessage(1), markAs: 'unseen' }), 201],
    [on().post(`/v1/subscribers/${GRACE}/messages/mark-as`).set(auth).send({ messageId: [graceMessage(1)], markAs: 'seen' }), 201],
    // A form body: the pact sends its fields as JSON, which the mock answers the same.
    [on().patch(`/v1/subscribers/${ADA}/credentials`).set(auth).type('form').send('providerId=fcm&credentials[deviceTokens][]=t-4'), 200],
    [on().get('/v2/subscribers/nobody').set(auth), 404],
  ]
  for (const [call, status] of calls) expect((await call).status).toBe(status)
}

/** The tenant's pact, its answer checked against the admin document. */
export async function exportedPact(server: MockServer, auth: Auth, query = 'consumer=web-app'): Promise<{ pact: Pact; text: string }> {
  const res = await request(server.url).get(`/__admin/pact?${query}`).set(auth)
  expect(res.status, res.text.slice(0, 300)).toBe(200)
  await expectContract('exportPact', res, 'admin')
  return { pact: res.body as Pact, text: res.text }
}

/** `pact` written to a file of its own. */
export function pactFile(pact: unknown): string {
  const file = join(mkdtempSync(join(tmpdir(), 'novu-mock-pact-')), 'pact.json')
  writeFileSync(file, JSON.stringify(pact))
  return file
}

/** Pact's own verifier over the pact files against `server`, states set up through the mock's endpoint, as tenant `apiKey`. */
export function verify(server: MockServer, pactUrls: string[], apiKey: string): Promise<unknown> {
  return new Verifier({
    provider: 'novu',
    providerBaseUrl: server.url,
    pactUrls,
    providerStatesSetupUrl: `${server.url}/__admin/pact/states`,
    customProviderHeaders: { Authorization: `ApiKey ${apiKey}` },
    logLevel: 'error',
  }).verifyProvider()
}
