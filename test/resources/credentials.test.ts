// The credentials' PUT (replace) and DELETE (docs/behaviour.md §11), over the records PATCH (§2.1) and GET (§2.2) use.
import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { MockServer } from '../../src/app/create-mock-server.ts'
import { expectContract } from '../helpers/expect-contract.ts'
import { freshTenant, startTestServer } from '../helpers/start-test-server.ts'
import { ADA, INTEGRATIONS } from '../helpers/well-known.ts'

let server: MockServer
beforeAll(async () => {
  server = await startTestServer()
})
afterAll(() => server.close())

const api = () => request(server.url)
const fcmTokens = async (auth: { Authorization: string }, subscriberId = ADA) => {
  const res = await api().get(`/v2/subscribers/${subscriberId}`).set(auth)
  return (res.body.channels as { providerId: string; credentials: { deviceTokens?: string[] } }[]).filter((c) => c.providerId === 'fcm').map((c) => c.credentials.deviceTokens)
}

describe('PUT /v1/subscribers/{subscriberId}/credentials', () => {
  it('replaces the stored device tokens with those sent, where PATCH appends', async () => {
    const auth = freshTenant()
    await api().patch(`/v1/subscribers/${ADA}/credentials`).set(auth).send({ providerId: 'fcm', credentials: { deviceTokens: ['a', 'b'] } })
    expect(await fcmTokens(auth)).toEqual([['fcm-token-ada-1', 'a', 'b']])
    const res = await api().put(`/v1/subscribers/${ADA}/credentials`).set(auth).send({ providerId: 'fcm', credentials: { deviceTokens: ['c'] } })
    expect(res.status).toBe(200)
    await expectContract('SubscribersV1Controller_updateSubscriberChannel', res, 'novu')
    expect(res.body.channels).toContainEqual({ providerId: 'fcm', _integrationId: INTEGRATIONS.fcm, credentials: { deviceTokens: ['c'] } })
    expect(await fcmTokens(auth)).toEqual([['c']])
  })

  it('keeps §2.1’s other rules: an unknown subscriber 400, a provider with no active integration 400', async () => {
    const auth = freshTenant()
    const unknown = await api().put('/v1/subscribers/nobody/credentials').set(auth).send({ providerId: 'fcm', credentials: { deviceTokens: ['x'] } })
    expect(unknown.status).toBe(400)
    expect(unknown.body.message).toBe('SubscriberId: nobody not found')
    const none = await api().put(`/v1/subscribers/${ADA}/credentials`).set(auth).send({ providerId: 'telegram', credentials: { deviceTokens: ['x'] } })
    expect(none.status).toBe(400)
    expect(none.body.message).toMatch(/^Subscribers environment \([0-9a-f]{24}\) do not have active telegram integration\.$/)
  })
})

describe('DELETE /v1/subscribers/{subscriberId}/credentials/{providerId}', () => {
  it('removes every channel entry of the provider: 204, no body; again still 204', async () => {
    const auth = freshTenant()
    await api().patch(`/v1/subscribers/${ADA}/credentials`).set(auth).send({ providerId: 'fcm', credentials: { deviceTokens: ['a'] } })
    await api().patch(`/v1/subscribers/${ADA}/credentials`).set(auth).send({ providerId: 'slack', credentials: { webhookUrl: 'https://hooks.example.com/x' } })
    const res = await api().delete(`/v1/subscribers/${ADA}/credentials/fcm`).set(auth)
    expect(res.status).toBe(204)
    expect(res.text).toBe('')
    expect(await fcmTokens(auth)).toEqual([])
    const channels = (await api().get(`/v2/subscribers/${ADA}`).set(auth)).body.channels as { providerId: string }[]
    expect(channels.map((c) => c.providerId)).toEqual(['slack'])
    expect((await api().delete(`/v1/subscribers/${ADA}/credentials/fcm`).set(auth)).status).toBe(204)
  })

  it('answers 404 for an unknown subscriber', async () => {
    const res = await api().delete('/v1/subscribers/nobody/credentials/fcm').set(freshTenant())
    expect(res.status).toBe(404)
    expect(res.body.message).toBe("Subscriber 'nobody' was not found")
  })
})

describe('a keyed DELETE of the credentials (the SDK sends a key with every write)', () => {
  it('is answered 204 again on a retry, replayed', async () => {
    const auth = freshTenant()
    const send = () => api().delete(`/v1/subscribers/${ADA}/credentials/fcm`).set(auth).set('idempotency-key', 'delete-fcm-1')
    expect((await send()).status).toBe(204)
    const again = await send()
    expect(again.status).toBe(204)
    expect(again.headers['idempotency-replay']).toBe('true')
    expect(again.text).toBe('')
  })
})
