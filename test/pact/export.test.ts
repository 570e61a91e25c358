import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { MockServer } from '../../src/app/create-mock-server.ts'
import { createLogger } from '../../src/log/logger.ts'
import { expectContract } from '../helpers/expect-contract.ts'
import { freshTenant, startTestServer } from '../helpers/start-test-server.ts'
import { ADA, GRACE } from '../helpers/well-known.ts'
import { exportedPact, scriptedCalls, type Auth } from './helpers.ts'

const FROZEN_AT = '2026-03-01T09:30:00.000Z'
const TIMESTAMP_RULE = { combine: 'AND', matchers: [{ match: 'regex', regex: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?Z$' }] }

const logLines: string[] = []
let server: MockServer
let other: MockServer
beforeAll(async () => {
  ;[server, other] = await Promise.all([startTestServer({ logger: createLogger('warn', { write: (line: string) => logLines.push(line) }) }), startTestServer()])
})
afterAll(() => Promise.all([server?.close(), other?.close()]))

const on = (target = server) => request(target.url)
const freeze = async (auth: Auth, target = server) => expect((await on(target).put('/__admin/clock').set(auth).send({ now: FROZEN_AT })).status).toBe(200)
const stateOf = async (auth: Auth) => (await on().get('/__admin/state').set(auth)).body
const changeState = (auth: Auth, body: unknown) => on().post('/__admin/pact/states').set(auth).send(body as object)

describe('GET /__admin/pact: the journal as a Pact V4 document', () => {
  it('has the Pact V4 structure: the top level and every interaction', async () => {
    const auth = freshTenant()
    await scriptedCalls(server, auth)
    const { pact } = await exportedPact(server, auth, 'consumer=web-app')
    expect(pact.consumer).toEqual({ name: 'web-app' })
    expect(pact.provider).toEqual({ name: 'novu' })
    expect(pact.metadata).toEqual({ pactSpecification: { version: '4.0' } })
    const descriptions = new Set(pact.interactions.map((interaction) => interaction.description))
    expect(descriptions.size).toBe(pact.interactions.length)
    for (const interaction of pact.interactions) {
      expect(interaction.type).toBe('Synchronous/HTTP')
      expect(typeof interaction.description).toBe('string')
      expect(interaction.providerStates).toHaveLength(1)
      expect(typeof interaction.providerStates[0].name).toBe('string')
      expect(Object.keys(interaction.providerStates[0].params)).toEqual(['seed', 'now', 'records'])
      expect(typeof interaction.request.method).toBe('string')
      expect(interaction.request.path).toMatch(/^\//)
      for (const values of Object.values({ ...interaction.request.query, ...interaction.request.headers })) expect(values).toEqual(expect.arrayContaining([expect.any(String)]))
      expect(Number.isInteger(interaction.response.status)).toBe(true)
      expect(interaction.response.headers).toEqual({ 'Content-Type': ['application/json; charset=utf-8'] })
      expect(interaction.response.body).toEqual({ content: expect.anything(), contentType: 'application/json', encoded: false })
    }
    const form = pact.interactions.at(-1)!
    expect(form.request.headers).toEqual({ 'Content-Type': ['application/json'] })
    expect(form.request.body.content).toEqual({ providerId: 'fcm', credentials: { deviceTokens: ['t-4'] } })
    expect(pact.interactions.map((interaction) => interaction.description).slice(0, 3)).toEqual(['#1 getSubscriber demo-subscriber-1', '#2 getSubscriber demo-subscriber-2', '#3 listChannelConnections'])
  })

  it('names the provider as asked, and takes the calls answered 4xx with statuses=all', async () => {
    const auth = freshTenant()
    await scriptedCalls(server, auth)
    const { pact } = await exportedPact(server, auth, 'consumer=web-app&provider=novu-eu&statuses=all')
    expect(pact.provider).toEqual({ name: 'novu-eu' })
    expect(pact.interactions).toHaveLength(15)
    expect(pact.interactions.at(-1)!.response.status).toBe(404)
  })

  it('answers 422 without a consumer', async () => {
    const res = await on().get('/__admin/pact').set(freshTenant())
    expect(res.status).toBe(422)
    await expectContract('exportPact', res, 'admin')
  })

  it('is byte-identical for the same calls under a frozen clock, with no rules for times', async () => {
    const auth = { Authorization: 'ApiKey frozen-run-key' }
    const texts: string[] = []
    for (const target of [server, other]) {
      await freeze(auth, target)
      await scriptedCalls(target, auth)
      texts.push((await exportedPact(target, auth)).text)
    }
    expect(texts[1]).toBe(texts[0])
    expect(texts[0]).not.toContain('"regex"')
  })

  it('under a running clock, matches timestamps by regex and the tenant ids by type', async () => {
    const auth = freshTenant()
    await scriptedCalls(server, auth)
    const { pact } = await exportedPact(server, auth)
    const markAs = pact.interactions.find((interaction) => interaction.request.path.endsWith('/mark-as'))!
    expect(markAs.response.matchingRules.body['$[0].createdAt']).toEqual(TIMESTAMP_RULE)
    expect(markAs.response.matchingRules.body['$[0]._environmentId']).toEqual({ combine: 'AND', matchers: [{ match: 'type' }] })
  })

  it('holds no API key, no Authorization and no value of a redacted header or query parameter', async () => {
    const apiKey = `secret-api-key-${crypto.randomUUID()}`
    const auth = { Authorization: `ApiKey ${apiKey}` }
    const secrets = { 'idempotency-key': 'idem-s3cret-value', 'x-api-key': 'xapi-s3cret-value', cookie: 'session=cookie-s3cret-value', 'x-auth-token': 'auth-s3cret-value' }
    const write = await on().patch(`/v1/subscribers/${GRACE}/credentials`).set(auth).set(secrets).send({ providerId: 'fcm', credentials: { deviceTokens: [apiKey] } })
    expect(write.status).toBe(200)
    expect((await on().get(`/v1/channel-connections?limit=1&token=query-s3cret-value&apiKey=${apiKey}`).set(auth)).status).toBeGreaterThanOrEqual(200)
    expect((await on().get(`/v2/subscribers/${ADA}`).set(auth).set('Prefer', 'delay=1')).status).toBe(200)
    const { pact, text } = await exportedPact(server, auth, 'consumer=web-app&statuses=all')
    expect(pact.interactions).toHaveLength(3)
    for (const secret of [apiKey, 'Authorization', 'authorization', ...Object.values(secrets), 'query-s3cret-value']) expect(text).not.toContain(secret)
    expect(pact.interactions[0]!.request.headers).toEqual({ 'Content-Type': ['application/json'] })
    expect(pact.interactions[2]!.request.headers).toEqual({ Prefer: ['delay=1'] })
  })
})

describe('provider states: each answer again, byte for byte', () => {
  it('a fresh tenant set up in each interaction state answers its request with the same bytes, same key', async () => {
    const auth = { Authorization: 'ApiKey replay-key' }
    await scriptedCalls(server, auth)
    const { pact } = await exportedPact(server, auth, 'consumer=web-app&statuses=all')
    for (const interaction of pact.interactions) {
      const { request: sent, response, providerStates } = interaction
      expect((await changeState(auth, { state: providerStates[0].name, params: providerStates[0].params, action: 'setup' })).status).toBe(200)
      const query = new URLSearchParams(Object.entries(sent.query ?? {}).flatMap(([name, values]) => (values as string[]).map((value) => [name, value]))).toString()
      let call = on()[sent.method.toLowerCase() as 'get'](`${sent.path}${query ? `?${query}` : ''}`).set(auth)
      if (sent.body) call = call.send(sent.body.content)
      const res = await call
      expect(res.status, interaction.description).toBe(response.status)
      expect(res.text, interaction.description).toBe(JSON.stringify(response.body.content))
    }
  })
})

describe('POST /__admin/pact/states', () => {
  it('sets up a state the mock did not write as the fresh seeded tenant, with a warn naming it; teardown resets', async () => {
    const auth = freshTenant()
    const seeded = await stateOf(auth)
    await scriptedCalls(server, auth)
    expect(await stateOf(auth)).not.toEqual(seeded)
    const res = await changeState(auth, { state: 'subscriber demo-subscriber-1 exists', params: { subscriberId: ADA }, action: 'setup' })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({})
    await expectContract('changePactState', res, 'admin')
    expect(await stateOf(auth)).toEqual(seeded)
    expect(logLines.some((line) => line.includes('"level":40') && line.includes('subscriber demo-subscriber-1 exists'))).toBe(true)

    await scriptedCalls(server, auth)
    expect((await changeState(auth, { state: 'anything', action: 'teardown' })).status).toBe(200)
    expect(await stateOf(auth)).toEqual(seeded)
    expect((await on().get('/__admin/requests').set(auth)).body.requests).toEqual([])
  })

  it('freezes the clock at the state instant', async () => {
    const auth = freshTenant()
    const res = await changeState(auth, { state: 'the seeded tenant', params: { now: FROZEN_AT, records: {} }, action: 'setup' })
    expect(res.status).toBe(200)
    expect((await on().get('/__admin/clock').set(auth)).body).toEqual({ now: FROZEN_AT, frozen: true })
  })

  it.each([
    ['a body that is not an object', []],
    ['no state', { action: 'setup' }],
    ['an unknown action', { state: 's', action: 'start' }],
    ['records that are not records', { state: 's', params: { now: FROZEN_AT, records: { subscribers: [{ name: 'x' }] } } }],
  ])('answers 422 for %s', async (_case, body) => {
    const res = await changeState(freshTenant(), body)
    expect(res.status).toBe(422)
    await expectContract('changePactState', res, 'admin')
  })

  it('answers 401 without Authorization', async () => {
    expect((await on().post('/__admin/pact/states').send({ state: 's' })).status).toBe(401)
  })
})
