// docs/recipes.md quotes this file: a test run's calls exported as a Pact, and a team's pact verified against the mock.
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Verifier } from '@pact-foundation/pact'
import { startMockServer, type MockServer } from 'novu-mock'
import { afterAll, beforeAll, expect, it } from 'vitest'

process.env.PACT_DO_NOT_TRACK = 'true' // Pact's tools send usage data unless told not to

const API_KEY = 'pact-recipe'
const PACTS = mkdtempSync(join(tmpdir(), 'pacts-'))

let mock: MockServer

beforeAll(async () => {
  mock = await startMockServer()
})

afterAll(async () => {
  await mock.close()
})

it('writes the calls of a test run as the consumer pact', async () => {
  // The code under test makes its calls to Novu (here, one).
  await fetch(`${mock.url}/v2/subscribers/demo-subscriber-1`, { headers: { Authorization: `ApiKey ${API_KEY}` } })

  // One interaction per call answered 2xx, each with the provider state it came from.
  const pact = await mock.tenant(API_KEY).pact({ consumer: 'notifications-app' })
  writeFileSync(join(PACTS, 'notifications-app-novu.json'), JSON.stringify(pact, null, 2))
  expect(pact.interactions).toHaveLength(1)
})

it("verifies a consumer pact against the mock with Pact's Verifier", async () => {
  await new Verifier({
    provider: 'novu',
    providerBaseUrl: mock.url,
    pactUrls: [join(PACTS, 'notifications-app-novu.json')],
    // Before each interaction: its provider state, set up on the tenant of the header below.
    providerStatesSetupUrl: `${mock.url}/__admin/pact/states`,
    // On the state calls and on every replayed request: the key chooses the tenant.
    customProviderHeaders: { Authorization: 'ApiKey verifier' },
  }).verifyProvider()
}, 120_000)
