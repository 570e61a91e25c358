import fc from 'fast-check'
import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { OpenAPIV3_1 } from 'openapi-types'
import type { MockServer } from '../../src/app/create-mock-server.ts'
import { loadContracts } from '../../src/app/create-state.ts'
import type { TenantState } from '../../src/store/records.ts'
import { readState } from '../helpers/read-state.ts'
import { startTestServer } from '../helpers/start-test-server.ts'
import { arbitraryOf } from './schema-arbitrary.ts'

type Schema = Parameters<typeof arbitraryOf>[0]
interface Call {
  operationId: string
  method: 'get' | 'post' | 'patch'
  path: string
  body?: unknown
}

let server: MockServer
let seed: TenantState
let schemas: Record<string, Schema>
let parameters: Record<string, Schema>
beforeAll(async () => {
  server = await startTestServer()
  seed = server.app.locals.seed
  const { document } = (await loadContracts()).api
  schemas = document.components!.schemas as Record<string, Schema>
  parameters = Object.fromEntries(Object.values(document.components!.parameters as Record<string, OpenAPIV3_1.ParameterObject>).map((p) => [p.name, p.schema as Schema]))
})
afterAll(() => server.close())

/** Ids drawn mostly from the seeded records, so that at least half the calls can succeed. */
const seeded = <T>(known: T[], other: fc.Arbitrary<T>) => fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...known) }, { weight: 1, arbitrary: other })

function callArbitrary(): fc.Arbitrary<Call> {
  const subscriberIds = seeded(seed.subscribers.map((s) => s.subscriberId), fc.string({ minLength: 1, maxLength: 8 }).map(encodeURIComponent))
  const upsert = fc
    .tuple(subscriberIds, arbitraryOf(schemas.UpsertCredentialsRequest!), seeded(['fcm', 'slack'], arbitraryOf(schemas.SubscriberCredentialProvider!)))
    .map(([id, body, providerId]): Call => ({ operationId: 'upsertSubscriberCredentials', method: 'patch', path: `/v1/subscribers/${id}/credentials`, body: { ...(body as object), providerId } }))
  const get = subscriberIds.map((id): Call => ({ operationId: 'getSubscriber', method: 'get', path: `/v2/subscribers/${id}` }))
  const integrationIds = seeded(seed.integrations.map((i) => i._id), fc.stringMatching(/^[0-9a-f]{24}$/))
  const setPrimary = integrationIds.map((id): Call => ({ operationId: 'setPrimaryIntegration', method: 'post', path: `/v1/integrations/${id}/set-primary` }))
  const queryNames = ['limit', 'orderBy', 'orderDirection', 'includeCursor', 'channel', 'providerId', 'contextKeys'] as const
  const list = fc
    .record(Object.fromEntries(queryNames.map((name) => [name, arbitraryOf(parameters[name]!)])), { requiredKeys: [] })
    .map((query): Call => ({ operationId: 'listChannelConnections', method: 'get', path: `/v1/channel-connections?${toQuery(query)}` }))
  const markAs = fc
    .tuple(seeded(['demo-subscriber-1', 'demo-subscriber-2'], subscriberIds), fc.subarray(seed.messages.slice(0, 40).map((m) => m._id), { minLength: 1, maxLength: 5 }), arbitraryOf(schemas.MarkAs!))
    .map(([id, messageId, markAs]): Call => ({ operationId: 'markMessagesAs', method: 'post', path: `/v1/subscribers/${id}/messages/mark-as`, body: { messageId, markAs } }))
  return fc.oneof(upsert, get, setPrimary, list, markAs)
}

function toQuery(query: Record<string, unknown>): string {
  const params = new URLSearchParams()
  for (const [name, value] of Object.entries(query)) for (const v of [value].flat()) params.append(name, String(v))
  return params.toString()
}

describe('generated valid requests (fast-check; the seed is printed on failure)', () => {
  it('answer 2xx or a documented 4xx with a body valid against the document, and keep the invariants', async () => {
    const { api } = await loadContracts()
    let answered = 0
    let succeeded = 0
    await fc.assert(
      fc.asyncProperty(fc.array(callArbitrary(), { minLength: 1, maxLength: 12 }), async (calls) => {
        const auth = { Authorization: `ApiKey property-${crypto.randomUUID()}` }
        for (const call of calls) {
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
