import fc from 'fast-check'
import type { OpenAPIV3_1 } from 'openapi-types'
import { loadContracts } from '../../src/app/create-state.ts'
import type { TenantState } from '../../src/store/records.ts'
import { arbitraryOf } from './schema-arbitrary.ts'

type Schema = Parameters<typeof arbitraryOf>[0]

/** One call of the five operations, valid against the document. */
export interface Call {
  operationId: string
  method: 'get' | 'post' | 'patch'
  path: string
  body?: unknown
}

/** Ids drawn mostly from the seeded records, so that at least half the calls can succeed. */
const seeded = <T>(known: T[], other: fc.Arbitrary<T>) => fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...known) }, { weight: 1, arbitrary: other })

/** Valid calls of the five operations, on the records of `seed`, from the API document's schemas. */
export async function callArbitrary(seed: TenantState): Promise<fc.Arbitrary<Call>> {
  const { document } = (await loadContracts()).api
  const schemas = document.components!.schemas as Record<string, Schema>
  const parameters = Object.fromEntries(Object.values(document.components!.parameters as Record<string, OpenAPIV3_1.ParameterObject>).map((p) => [p.name, p.schema as Schema]))
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

