/** Deterministic bad requests for every operation: a seeded PRNG mutates valid ones. */
import type { Random } from '../helpers/prng.ts'
import { ADA, adaMessage, INTEGRATIONS } from '../helpers/well-known.ts'

export interface FuzzRequest {
  operationId: string
  method: string
  path: string
  headers: Record<string, string>
  /** Sent as is (already serialized, possibly malformed). */
  body?: string
}

const pick = <T>(random: Random, values: readonly T[]): T => values[Math.floor(random() * values.length)]!

const NASTY_VALUES: readonly unknown[] = [
  null, true, 0, -1, 1e308, '', ' ', 'x'.repeat(100_000), '\u0000\u0001\u001f', '😀𝔘ñ\u202e', '../../etc/passwd', '%00', [], [[]], {}, { a: { b: { c: {} } } },
  { __proto__: { polluted: true } }, { constructor: { prototype: { polluted: true } } }, JSON.parse('{"__proto__":{"polluted":true}}'), nested(200),
]
const NASTY_SEGMENTS = ['%2e%2e', '%00', '%E0%A4%A', 'a%2Fb', '😀', '..', ' ', '%25', 'x'.repeat(2000), '__proto__', 'constructor']
const BAD_AUTH = ['', 'ApiKey', 'Bearer x', 'ApiKey  ', 'apikey k', 'ApiKey k k', 'Basic Zm9vOmJhcg==', 'ApiKey \u0001']

function nested(depth: number): unknown {
  let value: unknown = 'deep'
  for (let i = 0; i < depth; i++) value = { n: value }
  return value
}

/** One valid request of each operation: held to the document by test/unit/operation-lists.test.ts. */
export const VALID = [
  { operationId: 'upsertSubscriberCredentials', method: 'PATCH', path: `/v1/subscribers/${ADA}/credentials`, body: { providerId: 'fcm', credentials: { deviceTokens: ['t'] } } },
  { operationId: 'getSubscriber', method: 'GET', path: `/v2/subscribers/${ADA}` },
  { operationId: 'setPrimaryIntegration', method: 'POST', path: `/v1/integrations/${INTEGRATIONS.mailgun}/set-primary` },
  { operationId: 'listChannelConnections', method: 'GET', path: '/v1/channel-connections?limit=5' },
  { operationId: 'markMessagesAs', method: 'POST', path: `/v1/subscribers/${ADA}/messages/mark-as`, body: { messageId: [adaMessage(1)], markAs: 'read' } },
] as const

/** The `index`-th mutation of an operation's valid request; the same index gives the same request. */
export function fuzzRequest(random: Random, operationIndex: number): FuzzRequest {
  const valid = VALID[operationIndex % VALID.length]!
  const request: FuzzRequest = {
    operationId: valid.operationId,
    method: valid.method,
    path: valid.path,
    headers: { Authorization: 'ApiKey fuzz', 'Content-Type': 'application/json' },
    ...('body' in valid ? { body: JSON.stringify(valid.body) } : {}),
  }
  const mutations = 1 + Math.floor(random() * 3)
  for (let i = 0; i < mutations; i++) mutate(random, request, 'body' in valid ? (valid.body as Record<string, unknown>) : undefined)
  return request
}

function mutate(random: Random, request: FuzzRequest, validBody: Record<string, unknown> | undefined): void {
  switch (Math.floor(random() * 8)) {
    case 0: // a field of the body set to a nasty value, removed, or an extra one added
      if (validBody) {
        const body = { ...validBody } as Record<string, unknown>
        const key = pick(random, [...Object.keys(body), 'extra', '__proto__', 'constructor'])
        if (random() < 0.2) delete body[key]
        else Object.defineProperty(body, key, { value: pick(random, NASTY_VALUES), enumerable: true, writable: true, configurable: true })
        request.body = JSON.stringify(body)
      }
      return
    case 1: // the whole body replaced: malformed JSON, a nasty value, or nothing
      request.body = pick(random, ['{', '{"a":', 'null', '[]', '"str"', '{"messageId":[1,2,3]}', JSON.stringify(pick(random, NASTY_VALUES)), ''])
      return
    case 2:
      request.headers['Content-Type'] = pick(random, ['text/plain', 'application/xml', 'application/json; charset=latin1', 'multipart/form-data', ''])
      return
    case 3: {
      const segments = request.path.split('?')[0]!.split('/')
      segments[Math.max(2, Math.floor(random() * segments.length))] = pick(random, NASTY_SEGMENTS)
      request.path = segments.join('/') + (request.path.includes('?') ? `?${request.path.split('?')[1]}` : '')
      return
    }
    case 4:
      request.path += `${request.path.includes('?') ? '&' : '?'}${pick(random, ['limit=abc', 'limit=1&limit=2', 'contextKeys[]=a&contextKeys=b', 'after=x&before=y', '%zz=1', 'orderBy=__proto__', '__proto__[x]=1', 'a'.repeat(5000) + '=1', 'includeCursor=maybe'])}`
      return
    case 5:
      request.headers['idempotency-key'] = pick(random, ['k', 'k'.repeat(256), 'k'.repeat(4000), '😀', ' '])
      return
    case 6:
      request.headers.Authorization = pick(random, BAD_AUTH)
      return
    default:
      request.method = pick(random, ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'])
  }
}
