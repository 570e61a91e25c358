import fc from 'fast-check'
import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { MockServer } from '../../src/app/create-mock-server.ts'
import { loadContracts } from '../../src/app/create-state.ts'
import { callArbitrary, type Call } from './call-arbitrary.ts'
import { readState } from '../helpers/read-state.ts'
import { startTestServer } from '../helpers/start-test-server.ts'

let server: MockServer
let calls: fc.Arbitrary<Call>
beforeAll(async () => {
  server = await startTestServer()
  calls = await callArbitrary(server.app.locals.seed)
})
afterAll(() => server.close())

describe('generated valid requests (fast-check; the seed is printed on failure)', () => {
  it('answer 2xx or a documented 4xx with a body valid against the document, and keep the invariants', async () => {
    const { api } = await loadContracts()
    let answered = 0
    let succeeded = 0
    await fc.assert(
      fc.asyncProperty(fc.array(calls, { minLength: 1, maxLength: 12 }), async (sequence) => {
        const auth = { Authorization: `ApiKey property-${crypto.randomUUID()}` }
        for (const call of sequence) {
          const res = await request(server.url)[call.method](call.path).set(auth).send(call.body as object)
          const operation = api.operations.get(call.operationId)!
          expect(res.status < 500, `${call.path} ${res.status}`).toBe(true)
          const validate = operation.responseValidators.get(res.status)
          expect(validate, `${res.status} documented for ${call.operationId}`).toBeDefined()
          expect(validate!(res.body) ? [] : validate!.errors).toEqual([])
          answered++
          if (res.status < 300) succeeded++
        }
        await expectInvariants(auth)
      }),
      { numRuns: 25 },
    )
    expect(succeeded / answered).toBeGreaterThanOrEqual(0.5)
  })
})

async function expectInvariants(auth: { Authorization: string }): Promise<void> {
  const state = await readState(server.url, auth)
  const primaries = state.integrations.filter((i) => i.primary)
  expect(new Set(primaries.map((i) => i.channel)).size).toBe(primaries.length)
  expect(primaries.every((i) => i.active)).toBe(true)
  expect(state.messages.filter((m) => m.read && !m.seen)).toEqual([])
  for (const subscriber of state.subscribers) {
    for (const channel of subscriber.channels ?? []) {
      const tokens = channel.credentials.deviceTokens ?? []
      expect(new Set(tokens).size).toBe(tokens.length)
    }
  }
  const visited: string[] = []
  for (let after: string | null | undefined; after !== null; ) {
    const res = await request(server.url).get(`/v1/channel-connections?limit=50${after ? `&after=${after}` : ''}`).set(auth)
    visited.push(...(res.body.data as { identifier: string }[]).map((c) => c.identifier))
    after = res.body.next
  }
  expect(visited.length).toBe(state.channelConnections.length)
  expect(new Set(visited).size).toBe(visited.length)
}
