import { TenantClocks } from '../policies/clock/tenant-clocks.ts'
import { FaultRules } from '../policies/faults/fault-rules.ts'
import { RequestJournal } from '../journal/request-journal.ts'
import SwaggerParser from '@apidevtools/swagger-parser'
import type { ValidateFunction } from 'ajv/dist/2020.js'
import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { adminHandlers } from '../admin/handlers/admin-handlers.ts'
import { EVENT_STREAM_OPERATION } from '../admin/event-stream.ts'
import { createAjvInstances } from '../contract/ajv-instances.ts'
import type { Kind } from './fixture-files.ts'
import { ADMIN_DOCUMENT, API_DOCUMENT } from '../contract/load-contract.ts'
import { handlers } from '../resources/registry/handlers.ts'
import { createApp } from '../app/create-app.ts'
import { loadContracts } from '../app/create-state.ts'
import { createLogger } from '../log/logger.ts'
import type { MockServer } from '../app/create-mock-server.ts'
import type { StoredMessage, TenantState } from '../store/records.ts'
import { expectContract } from '../../test/helpers/expect-contract.ts'
import { freshTenant, startTestServer } from '../../test/helpers/start-test-server.ts'
import { ADA } from '../../test/helpers/well-known.ts'
import { clocksInMemory } from '../../test/helpers/clocks-in-memory.ts'

const REFERENCE_DATE = '2025-01-01T00:00:00.000Z'
const RECORD_SCHEMAS = {
  subscribers: 'StoredSubscriber',
  integrations: 'StoredIntegration',
  channelConnections: 'StoredChannelConnection',
  messages: 'StoredMessage',
} as const satisfies Record<Kind, string>
const KINDS = Object.keys(RECORD_SCHEMAS) as Kind[]

const seedOf = async (options: Parameters<typeof createApp>[0] = {}) => (await createApp({ logLevel: 'silent', ...options })).locals.seed

let seed: TenantState
let server: MockServer
beforeAll(async () => {
  seed = await seedOf()
  server = await startTestServer()
})
afterAll(() => server.close())

/** Every (key, value) pair in a record tree, with its path. */
function* walk(value: unknown, path: string): Generator<[string, string, unknown]> {
  if (Array.isArray(value)) for (const [i, item] of value.entries()) yield* walk(item, `${path}.${i}`)
  else if (value !== null && typeof value === 'object')
    for (const [key, item] of Object.entries(value)) {
      yield [`${path}.${key}`, key, item]
      yield* walk(item, `${path}.${key}`)
    }
}

describe('the default seeded state', () => {
  it('validates record by record against the admin schemas', async () => {
    const { admin } = await loadContracts()
    const ajv = createAjvInstances().response
    const components = admin.document.components!.schemas!
    const problems: string[] = []
    for (const kind of KINDS) {
      const validate: ValidateFunction = ajv.compile(components[RECORD_SCHEMAS[kind]] as object)
      seed[kind].forEach((record, index) => {
        if (!validate(record)) problems.push(`${kind}.${index}: ${JSON.stringify(validate.errors?.slice(0, 2))}`)
      })
    }
    expect(problems).toEqual([])
    expect(KINDS.map((kind) => seed[kind].length)).toEqual([50, 9, 120, 253])
  })

  it('is what GET /__admin/state serves, and that validates too', async () => {
    const res = await request(server.url).get('/__admin/state').set(freshTenant())
    expect(res.status).toBe(200)
    await expectContract('getState', res, 'admin')
    expect(res.body).toEqual(seed)
  })

  it('presents every subscriber, connection and message through the API within the contract', async () => {
    const auth = freshTenant()
    for (const { subscriberId } of seed.subscribers) {
      const res = await request(server.url).get(`/v2/subscribers/${subscriberId}`).set(auth)
      expect(res.status, subscriberId).toBe(200)
      await expectContract('getSubscriber', res)
    }
    const connections: string[] = []
    for (let after: string | null = null, page = 0; page === 0 || after !== null; page++) {
      const res = await request(server.url).get(`/v1/channel-connections?limit=100${after ? `&after=${after}` : ''}`).set(auth)
      expect(res.status).toBe(200)
      await expectContract('listChannelConnections', res)
      connections.push(...(res.body.data as { identifier: string }[]).map((c) => c.identifier))
      after = res.body.next as string | null
    }
    expect(connections.sort()).toEqual(seed.channelConnections.map((c) => c.identifier).sort())
    const ownerOf = new Map(seed.subscribers.map((s) => [s._id, s.subscriberId]))
    const byOwner = new Map<string, string[]>()
    for (const m of seed.messages) byOwner.set(ownerOf.get(m._subscriberId)!, [...(byOwner.get(ownerOf.get(m._subscriberId)!) ?? []), m._id])
    const presented: string[] = []
    for (const [subscriberId, ids] of byOwner) {
      for (let start = 0; start < ids.length; start += 50) {
        const page = ids.slice(start, start + 50)
        const res = await request(server.url).post(`/v1/subscribers/${subscriberId}/messages/mark-as`).set(auth).send({ messageId: page, markAs: 'seen' })
        expect(res.status, subscriberId).toBe(201)
        await expectContract('markMessagesAs', res)
        presented.push(...(res.body as { _id: string }[]).map((m) => m._id))
      }
    }
    expect(presented.sort()).toEqual(seed.messages.map((m) => m._id).sort())
  })

  it('generates messages that exercise the whole Message schema', () => {
    const generated = seed.messages.slice(13)
    const steps = generated.flatMap((m) => m.template?.steps ?? []).flatMap((s) => [s, ...(s.variants ?? [])])
    const metadata = steps.map((s) => s.metadata).filter((m) => m !== undefined) as Record<string, unknown>[]
    const kinds = new Set(
      metadata.map((m) => {
        if (m.type === 'scheduled' && typeof m.delayPath === 'string') return 'delay scheduled'
        if (m.type === 'timed' && typeof m.timed === 'object') return 'digest timed'
        if ((m.type === 'regular' || m.type === 'backoff') && ('digestKey' in m || 'backoff' in m)) return 'digest regular'
        if (m.type === 'regular') return 'delay regular'
        return `unknown ${JSON.stringify(m)}`
      }),
    )
    expect([...kinds].sort()).toEqual(['delay regular', 'delay scheduled', 'digest regular', 'digest timed'])
    const has = (test: (m: StoredMessage) => boolean) => generated.some(test)
    expect(has((m) => Array.isArray(m.content) && m.content.some((b) => b.type === 'button') && m.content.some((b) => b.type === 'text'))).toBe(true)
    expect(has((m) => typeof m.content === 'string')).toBe(true)
    expect(has((m) => (m.cta.action?.buttons?.length ?? 0) > 0)).toBe(true)
    expect(has((m) => m.template !== undefined)).toBe(true)
    expect(has((m) => (m.deliveredAt?.length ?? 0) > 0)).toBe(true)
    expect(has((m) => m.payload !== undefined && Object.keys(m.payload).length > 0)).toBe(true)
    expect(has((m) => (m.contextKeys?.length ?? 0) > 0)).toBe(true)
    expect(new Set(generated.map((m) => m.channel))).toEqual(new Set(['in_app', 'email', 'sms', 'push', 'chat']))
  })

  it('dates every seeded timestamp before the reference date', () => {
    const stamps = [...walk(seed, 'state')].filter(([, , v]) => typeof v === 'string' && /^\d{4}-\d{2}-\d{2}T/.test(v))
    // At least each record's createdAt, plus updatedAt of subscribers and connections.
    const required = 2 * seed.subscribers.length + seed.integrations.length + 2 * seed.channelConnections.length + seed.messages.length
    expect(stamps.length).toBeGreaterThanOrEqual(required)
    const late = stamps.filter(([, , v]) => !(Date.parse(v as string) < Date.parse(REFERENCE_DATE)))
    expect(late.map(([path, , v]) => `${path}=${String(v)}`)).toEqual([])
  })

  it('uses 24 lowercase hex characters for every internal id', async () => {
    const ids = [...walk(seed, 'state')].filter(([, key, v]) => /^_(id|\w*Id)$/.test(key) && typeof v === 'string')
    expect(ids.length).toBeGreaterThan(1000)
    expect(ids.filter(([, , v]) => !/^[0-9a-f]{24}$/.test(v as string)).map(([path, , v]) => `${path}=${String(v)}`)).toEqual([])
    const res = await request(server.url).get(`/v2/subscribers/${ADA}`).set(freshTenant())
    expect(res.status).toBe(200)
    await expectContract('getSubscriber', res)
    expect([res.body._organizationId, res.body._environmentId]).toEqual([expect.stringMatching(/^[0-9a-f]{24}$/), expect.stringMatching(/^[0-9a-f]{24}$/)])
  })
})

describe('determinism of the seed', () => {
  it('gives byte-identical GET /__admin/state bodies on two servers with the same seed', async () => {
    const other = await startTestServer({ seed: 1 })
    try {
      const auth = { Authorization: 'ApiKey seeding-determinism' }
      const [a, b] = await Promise.all([request(server.url).get('/__admin/state').set(auth), request(other.url).get('/__admin/state').set(auth)])
      expect([a.status, b.status]).toEqual([200, 200])
      await expectContract('getState', a, 'admin')
      expect(a.text.length).toBeGreaterThan(10_000)
      expect(b.text).toBe(a.text)
    } finally {
      await other.close()
    }
  })

  it('changes the generated records with another seed, but not the well-known ones', async () => {
    const other = await seedOf({ seed: 2 })
    expect(other.subscribers.slice(0, 2)).toEqual(seed.subscribers.slice(0, 2))
    expect(other.integrations).toEqual(seed.integrations)
    expect(other.messages.slice(0, 13)).toEqual(seed.messages.slice(0, 13))
    const unchanged = (kind: Kind, from: number) =>
      other[kind].slice(from).filter((record, i) => JSON.stringify(record) === JSON.stringify(seed[kind][from + i])).length
    expect(other.subscribers).toHaveLength(50)
    expect(unchanged('subscribers', 2)).toBe(0)
    expect(unchanged('messages', 13)).toBe(0)
    expect(unchanged('channelConnections', 0)).toBe(0)
  })

  it('keeps the generated subscribers and messages when only the connection count changes', async () => {
    const fewer = await seedOf({ volumes: { subscribers: 50, channelConnections: 7 } })
    expect(fewer.channelConnections).toHaveLength(7)
    expect(fewer.subscribers).toEqual(seed.subscribers)
    expect(fewer.messages).toEqual(seed.messages)
    expect(fewer.channelConnections).toEqual(seed.channelConnections.slice(0, 7))
  })
})

describe('the OpenAPI documents', () => {
  it.each([
    ['api', API_DOCUMENT],
    ['admin', ADMIN_DOCUMENT],
  ])('the %s document passes SwaggerParser.validate', async (_name, file) => {
    await expect(SwaggerParser.validate(file)).resolves.toBeDefined()
  })

  const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'options', 'head', 'trace'] as const
  const adminKeys = async () => [
    EVENT_STREAM_OPERATION,
    ...Object.keys(
      adminHandlers({
        version: 'test',
        startedAt: 0,
        journal: new RequestJournal(1),
        tenants: { seed: { seed: 1, subscribers: 2, channelConnections: 0 }, acceptKey: () => {}, strictKeys: new Set() },
        faults: new FaultRules({ faultRulesOf: () => undefined, changeFaultRules: (_tenant, change) => change(undefined).result }),
        clocks: new TenantClocks({ store: clocksInMemory(), start: undefined, realNow: Date.now, onRewind: () => undefined }),
        clean: async () => undefined,
        api: (await loadContracts()).api,
        logger: createLogger('silent'),
        novu: (await loadContracts()).novu,
      }, 'open'),
    ),
  ]
  it.each([
    ['api', async () => Object.keys(handlers)],
    ['admin', adminKeys],
  ] as const)('the %s document’s operationIds equal the handler keys', async (name, keysOf) => {
    const keys = await keysOf()
    const { document } = (await loadContracts())[name]
    const ids = Object.values(document.paths ?? {}).flatMap((item) => METHODS.map((m) => item?.[m]?.operationId).filter((id) => id !== undefined))
    expect(ids.sort()).toEqual([...keys].sort())
  })
})
