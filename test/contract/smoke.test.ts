import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { MockServer } from '../../src/app/create-mock-server.ts'
import { expectContract } from '../helpers/expect-contract.ts'
import { freshTenant, startTestServer } from '../helpers/start-test-server.ts'
import { ADA, adaMessage, GRACE, INTEGRATIONS } from '../helpers/well-known.ts'

let server: MockServer
beforeAll(async () => {
  server = await startTestServer()
})
afterAll(() => server.close())

describe('a newly started mock', () => {
  it('answers its health check without a key', async () => {
    const res = await request(server.url).get('/__admin/health')
    expect(res.status).toBe(200)
    expect(res.body.status).toBe('ok')
    await expectContract('getHealth', res, 'admin')
  })

  it('serves each of the five operations against the well-known records', async () => {
    const auth = freshTenant()
    const calls = [
      ['upsertSubscriberCredentials', request(server.url).patch(`/v1/subscribers/${GRACE}/credentials`).set(auth).send({ providerId: 'fcm', credentials: { deviceTokens: ['t1'] } }), 200],
      ['getSubscriber', request(server.url).get(`/v2/subscribers/${ADA}`).set(auth), 200],
      ['setPrimaryIntegration', request(server.url).post(`/v1/integrations/${INTEGRATIONS.mailgun}/set-primary`).set(auth), 200],
      ['listChannelConnections', request(server.url).get('/v1/channel-connections').set(auth), 200],
      ['markMessagesAs', request(server.url).post(`/v1/subscribers/${ADA}/messages/mark-as`).set(auth).send({ messageId: adaMessage(1), markAs: 'read' }), 201],
    ] as const
    for (const [operationId, call, status] of calls) {
      const res = await call
      expect(res.status, operationId).toBe(status)
      await expectContract(operationId, res)
    }
  })
})
