import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { MockServer } from '../../src/app/create-mock-server.ts'
import { expectContract } from '../helpers/expect-contract.ts'
import { readState } from '../helpers/read-state.ts'
import { freshTenant, startTestServer } from '../helpers/start-test-server.ts'

type Auth = ReturnType<typeof freshTenant>

const M1 = '64f200000000000000000001'
const M2 = '64f200000000000000000002'
const MARK_AS = '/v1/subscribers/demo-subscriber-1/messages/mark-as'
const CREDENTIALS = '/v1/subscribers/demo-subscriber-2/credentials'
const FORM = 'application/x-www-form-urlencoded'

let server: MockServer
beforeAll(async () => {
  server = await startTestServer()
})
afterAll(() => server.close())

const send = (method: 'post' | 'patch', path: string, auth: Auth, contentType: string, payload: string | Buffer) =>
  request(server.url)[method](path).set(auth).set('Content-Type', contentType).send(payload)

async function lastEntry(auth: Auth) {
  const res = await request(server.url).get('/__admin/requests').set(auth)
  expect(res.status).toBe(200)
  await expectContract('listRequests', res, 'admin')
  return res.body.requests.at(-1)
}

describe('a form body (curl -d), parsed as the live service parses it', () => {
  it('marks messages as read, as the same body in JSON would', async () => {
    const auth = freshTenant()
    const res = await send('post', MARK_AS, auth, FORM, `messageId[]=${M1}&messageId[]=${M2}&markAs=read`)
    expect(res.status, JSON.stringify(res.body)).toBe(201)
    await expectContract('markMessagesAs', res)
    expect(res.body.map((m: { _id: string; read: boolean }) => [m._id, m.read])).toEqual([[M1, true], [M2, true]])
    const stored = (await readState(server.url, auth)).messages.filter((m) => m._id === M1 || m._id === M2)
    expect(stored.map((m) => m.read)).toEqual([true, true])
    expect((await lastEntry(auth)).requestBody).toEqual({ messageId: [M1, M2], markAs: 'read' })
  })

  it('reads nested keys and a[]= (the credentials body)', async () => {
    const auth = freshTenant()
    const body = 'providerId=fcm&credentials[deviceTokens][]=form-1&credentials[deviceTokens][]=form-2&credentials[extra]=dropped'
    const res = await send('patch', CREDENTIALS, auth, `${FORM}; charset=utf-8`, body)
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    await expectContract('upsertSubscriberCredentials', res)
    const fcm = res.body.channels.find((c: { providerId: string }) => c.providerId === 'fcm')
    expect(fcm.credentials).toEqual({ deviceTokens: expect.arrayContaining(['form-1', 'form-2']) })
    const stored = (await readState(server.url, auth)).subscribers.find((s) => s.subscriberId === 'demo-subscriber-2')
    expect(JSON.stringify(stored)).toContain('form-2')
    expect(JSON.stringify(stored)).not.toContain('dropped')
  })

  it('is validated like JSON: a 422 in the live service words, nothing changed', async () => {
    const auth = freshTenant()
    const res = await send('post', MARK_AS, auth, FORM, `messageId=${M1}&markAs=done`)
    expect(res.status).toBe(422)
    await expectContract('markMessagesAs', res)
    expect(res.body.errors.general.messages).toEqual(['markAs must be one of the following values: read, seen, unread, unseen'])
    expect((await readState(server.url, auth)).messages.find((m) => m._id === M1)?.read).toBe(false)
  })

  it('pollutes no prototype and keeps no unknown key', async () => {
    const auth = freshTenant()
    const res = await send('post', MARK_AS, auth, FORM, `__proto__[polluted]=yes&constructor[prototype][polluted]=yes&messageId=${M1}&markAs=read`)
    expect(res.status, JSON.stringify(res.body)).toBe(201)
    await expectContract('markMessagesAs', res)
    expect(Object.prototype).not.toHaveProperty('polluted')
    expect((await lastEntry(auth)).requestBody).toEqual({ messageId: M1, markAs: 'read' })
  })

  it('says in the journal, not in the body, that the body was read as a form for want of a JSON type (curl -d without -H)', async () => {
    const auth = freshTenant()
    // What `curl -d '{"messageId":…}'` sends: curl's default type for -d is a form.
    const res = await send('post', MARK_AS, auth, FORM, JSON.stringify({ messageId: [M1], markAs: 'read' }))
    expect(res.status).toBe(422)
    await expectContract('markMessagesAs', res)
    expect(JSON.stringify(res.body)).not.toMatch(/form/)
    expect(await lastEntry(auth)).toMatchObject({ status: 422, note: expect.stringMatching(/^body read as a form \(application\/x-www-form-urlencoded\) because no JSON content type was sent/) })
  })

  it('is a 400 nested deeper than the parser reads, never a 5xx', async () => {
    const res = await send('post', MARK_AS, freshTenant(), FORM, `markAs${'[a]'.repeat(40)}=read`)
    expect(res.status).toBe(400)
    await expectContract('markMessagesAs', res)
  })
})

describe('a body of any other type reads as empty', () => {
  it.each(['text/plain', 'application/octet-stream', 'application/xml'])('%s: the 422 of the required fields, journaled as ignored', async (type) => {
    const auth = freshTenant()
    const res = await send('post', MARK_AS, auth, type, JSON.stringify({ messageId: [M1], markAs: 'read' }))
    expect(res.status).toBe(422)
    await expectContract('markMessagesAs', res)
    expect(res.body.errors.general.messages).toEqual([
      'messageId should not be null or undefined',
      'messageId must be a valid MongoDB ObjectId or an array of valid MongoDB ObjectIds',
      'markAs should not be null or undefined',
    ])
    const entry = await lastEntry(auth)
    expect(entry).toMatchObject({ status: 422, note: `body ignored for its content type (${type})` })
    expect(entry).not.toHaveProperty('requestBody')
    expect((await readState(server.url, auth)).messages.find((m) => m._id === M1)?.read).toBe(false)
  })

  it('a JSON body notes nothing', async () => {
    const auth = freshTenant()
    expect((await send('post', MARK_AS, auth, 'application/json', JSON.stringify({ messageId: [M1], markAs: 'read' }))).status).toBe(201)
    expect(await lastEntry(auth)).not.toHaveProperty('note')
  })

  it('the admin API still takes JSON only: 415', async () => {
    const res = await request(server.url).put('/__admin/state').set(freshTenant()).set('Content-Type', 'text/plain').send('{}')
    expect(res.status).toBe(415)
    await expectContract('putState', res, 'admin')
  })
})
