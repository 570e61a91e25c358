import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { MockServer } from '../../src/app/create-mock-server.ts'
import { startTestServer } from '../helpers/start-test-server.ts'
import { exportedPact, pactFile, scriptedCalls, verify, type Pact } from './helpers.ts'

// The verifier runs Pact's native core: a few seconds per run on a busy machine.
const VERIFY_TIMEOUT = 120_000

let consumerSide: MockServer
let providerSide: MockServer
let pact: Pact
beforeAll(async () => {
  ;[consumerSide, providerSide] = await Promise.all([startTestServer(), startTestServer()])
  const auth = { Authorization: 'ApiKey consumer-side-key' }
  await scriptedCalls(consumerSide, auth)
  pact = (await exportedPact(consumerSide, auth)).pact
})
afterAll(() => Promise.all([consumerSide?.close(), providerSide?.close()]))

describe('a test run exported as a pact, verified by Pact against a fresh mock', () => {
  it('exports every call answered 2xx, in order, each with its state', () => {
    expect(pact.interactions).toHaveLength(14)
    expect(pact.interactions.map((interaction) => interaction.request.path)[0]).toBe('/v2/subscribers/demo-subscriber-1')
    const states = pact.interactions.map((interaction) => interaction.providerStates[0])
    expect(states[4].name).toMatch(/^subscriber demo-subscriber-2 exists/)
    expect(Object.keys(states[4].params.records)).toEqual(['subscribers', 'integrations'])
  })

  it('verifies every interaction, with another key, states set up through /__admin/pact/states', async () => {
    await expect(verify(providerSide, [pactFile(pact)], 'provider-side-key')).resolves.toBeDefined()
  }, VERIFY_TIMEOUT)

  it('fails verification once one expected field is changed', async () => {
    const changed = structuredClone(pact)
    const answer = changed.interactions.find((interaction) => interaction.request.path === '/v2/subscribers/demo-subscriber-2')!
    answer.response.body.content.lastName = 'Not-Hopper'
    await expect(verify(providerSide, [pactFile(changed)], 'provider-side-key')).rejects.toThrow()
  }, VERIFY_TIMEOUT)
})
