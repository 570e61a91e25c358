import { connect } from 'node:net'
import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { MockServer } from '../../src/app/create-mock-server.ts'
import { expectContract, expectErrorDto } from '../helpers/expect-contract.ts'
import { halfClosedExchange } from '../helpers/half-closed.ts'
import { freshTenant, startTestServer } from '../helpers/start-test-server.ts'
import { ADA, adaMessage, GRACE } from '../helpers/well-known.ts'

let server: MockServer
beforeAll(async () => {
  server = await startTestServer()
})
afterAll(() => server.close())

/** Raw bytes sent, the whole answer read (the server closes the connection after it): its status and JSON body. */
async function rawAnswer(bytes: string): Promise<{ status: number; body: unknown }> {
  const { status, text } = await halfClosedExchange(server.port, bytes)
  return { status, body: JSON.parse(text) }
}

describe('limits answered in the documented shape', () => {
  it('rewrites Node’s answer to headers that are too large as a 431 ErrorDto', async () => {
    const answer = await rawAnswer(`GET /v2/subscribers/${ADA} HTTP/1.1\r\nHost: localhost\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`)
    expect(answer.status).toBe(431)
    await expectErrorDto(answer.body)
  })

  it('rewrites Node’s answer to a malformed request as a 400 ErrorDto', async () => {
    const answer = await rawAnswer('NOT A REQUEST\r\n\r\n')
    expect(answer.status).toBe(400)
    await expectErrorDto(answer.body)
  })

  it('takes 3,000 messageIds in one request: only the body size (100 KB) bounds their number', async () => {
    const messageId = Array.from({ length: 3_000 }, (_, i) => i.toString(16).padStart(24, '0'))
    messageId[1_500] = adaMessage(1)
    const res = await request(server.url).post(`/v1/subscribers/${ADA}/messages/mark-as`).set(freshTenant()).send({ messageId, markAs: 'read' })
    expect(res.status).toBe(201)
    await expectContract('markMessagesAs', res)
    expect(res.body.map((m: { _id: string }) => m._id)).toEqual([adaMessage(1)])
  })

  it('answers 400, not 422, for 1,000 deviceTokens: a channel holds at most 100', async () => {
    const body = { providerId: 'fcm', credentials: { deviceTokens: Array.from({ length: 1000 }, (_, i) => `t${i}`) } }
    const res = await request(server.url).patch(`/v1/subscribers/${GRACE}/credentials`).set(freshTenant()).send(body)
    expect(res.status).toBe(400)
    await expectContract('upsertSubscriberCredentials', res)
  })
})

describe('counts', () => {
  it('refuses more than 100 query parameters with a 422', async () => {
    const query = Array.from({ length: 101 }, (_, i) => `contextKeys=k${i}`).join('&')
    const res = await request(server.url).get(`/v1/channel-connections?${query}`).set(freshTenant())
    expect(res.status).toBe(422)
    await expectContract('listChannelConnections', res)
    expect(res.body.errors.general.messages[0]).toBe('at most 100 query parameters, got 101')
  })

  it('tells a connection past the cap to come back (503), and serves the others', async () => {
    const capped = await startTestServer({ maxConnections: 2 })
    const held = await Promise.all([0, 1].map(() => new Promise<ReturnType<typeof connect>>((resolve) => { const s = connect(capped.port, '127.0.0.1', () => resolve(s)) })))
    const third = await new Promise<string>((resolve) => {
      const socket = connect(capped.port, '127.0.0.1', () => socket.write('GET /__admin/health HTTP/1.1\r\nHost: localhost\r\n\r\n'))
      let answer = ''
      socket.on('data', (chunk) => (answer += chunk))
      socket.on('close', () => resolve(answer))
    })
    expect(third.split(' ')[1]).toBe('503')
    expect(third).toContain('Retry-After: 1')
    held.forEach((socket) => socket.destroy())
    await capped.close()
  })
})

describe('slow clients', () => {
  it('answers a request that never finishes with a 408 ErrorDto', { timeout: 20_000 }, async () => {
    const slow = await startTestServer({ requestTimeoutMs: 1000 })
    const answer = await new Promise<string>((resolve) => {
      const socket = connect(slow.port, '127.0.0.1', () => socket.write('PATCH /v1/subscribers/demo-subscriber-1/credentials HTTP/1.1\r\nHost: localhost\r\nAuthorization: ApiKey slow\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"provider'))
      let text = ''
      socket.on('data', (chunk) => (text += chunk))
      socket.on('close', () => resolve(text))
    })
    await slow.close()
    expect(answer.split(' ')[1]).toBe('408')
    await expectErrorDto(JSON.parse(answer.split('\r\n\r\n')[1]!))
  })
})
