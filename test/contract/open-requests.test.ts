import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { MockServer } from '../../src/app/create-mock-server.ts'
import { loadContracts } from '../../src/contract/load-contract.ts'
import { expectContract } from '../helpers/expect-contract.ts'
import { readState } from '../helpers/read-state.ts'
import { freshTenant, startTestServer } from '../helpers/start-test-server.ts'

const M1 = '64f200000000000000000001'
const REQUEST_SCHEMAS = ['MarkMessagesAsRequest', 'UpsertCredentialsRequest', 'ChannelCredentials']

let server: MockServer
beforeAll(async () => {
  server = await startTestServer()
})
afterAll(() => server.close())

describe('the document describes the requests the mock accepts (docs/behaviour.md §1.4)', () => {
  it('leaves the request bodies open', async () => {
    const res = await request(server.url).get('/openapi.json')
    expect(res.status).toBe(200)
    const schemas = res.body.components.schemas as Record<string, { additionalProperties?: unknown }>
    for (const name of REQUEST_SCHEMAS) expect(schemas[name], name).not.toHaveProperty('additionalProperties')
  })

  it('keeps the answers closed: a credential field the mock does not store breaks the answer', async () => {
    const { api } = await loadContracts({ build: undefined })
    const validate = api.operations.get('getSubscriber')!.responseValidators.get(200)!
    const ada = (await request(server.url).get('/v2/subscribers/demo-subscriber-1').set(freshTenant())).body
    expect(validate(ada)).toBe(true)
    ada.channels[0].credentials.alertUid = 'leaked'
    expect(validate(ada)).toBe(true) // a documented field
    ada.channels[0].credentials['x-extra'] = 42
    expect(validate(ada)).toBe(false)
  })
})

describe('extra fields are accepted, then stripped before anything keeps them', () => {
  it('the body validators strip them, at every level, though the document is open', async () => {
    const { api } = await loadContracts({ build: undefined })
    const mark = { markAs: 'read', messageId: [M1], 'x-extra': 42 }
    expect(api.operations.get('markMessagesAs')!.validateBody!(mark)).toBe(true)
    expect(mark).toEqual({ markAs: 'read', messageId: [M1] })
    const upsert = { providerId: 'fcm', 'x-top': 1, credentials: { deviceTokens: ['t'], 'x-inner': 2 } }
    expect(api.operations.get('upsertSubscriberCredentials')!.validateBody!(upsert)).toBe(true)
    expect(upsert).toEqual({ providerId: 'fcm', credentials: { deviceTokens: ['t'] } })
  })

  it('mark-as with an extra field is a 201 whose answer and records hold no trace of it', async () => {
    const auth = freshTenant()
    const body = { markAs: 'read', messageId: M1, 'x-extra': 42 }
    const res = await request(server.url).post('/v1/subscribers/demo-subscriber-1/messages/mark-as').set(auth).send(body)
    expect(res.status).toBe(201)
    await expectContract('markMessagesAs', res)
    expect(JSON.stringify(res.body)).not.toContain('x-extra')
    const state = await readState(server.url, auth)
    expect(state.messages.find((m) => m._id === M1)?.read).toBe(true)
    expect(JSON.stringify(state)).not.toContain('x-extra')
  })

  it('credentials with extra fields at both levels: a 200, only the stored fields kept', async () => {
    const auth = freshTenant()
    const body = { providerId: 'slack', 'x-top': 1, credentials: { webhookUrl: 'https://hooks.example/1', 'x-inner': 2, alertUid: 'dropped' } }
    const res = await request(server.url).patch('/v1/subscribers/demo-subscriber-2/credentials').set(auth).send(body)
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    await expectContract('upsertSubscriberCredentials', res)
    const slack = res.body.channels.find((c: { providerId: string }) => c.providerId === 'slack')
    expect(slack.credentials).toEqual({ webhookUrl: 'https://hooks.example/1' })
    expect(JSON.stringify(await readState(server.url, auth))).not.toMatch(/x-top|x-inner/)
  })
})
