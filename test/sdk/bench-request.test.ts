// The key's cost is read with requests written as the official SDK writes them (bench/lib/sdk-request.ts); this holds them to the SDK installed.
import { once } from 'node:events'
import { createServer, type Server } from 'node:net'
import type { AddressInfo } from 'node:net'
import { Novu } from '@novu/api'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sdkKey, sdkRequest } from '../../bench/lib/sdk-request.ts'
import { ADA, adaMessage, INTEGRATIONS } from '../helpers/well-known.ts'

/** Every request's bytes as they arrive (each fits one read here), answered with an empty object. */
function captureServer(captured: string[]): Server {
  return createServer((socket) =>
    socket.on('data', (chunk: Buffer) => {
      captured.push(chunk.toString('latin1'))
      socket.write('HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 2\r\n\r\n{}')
    }),
  )
}

describe('the requests bench/key-cost*.ts send', () => {
  const captured: string[] = []
  let server: Server
  let novu: Novu
  beforeAll(async () => {
    server = captureServer(captured).listen(0, '127.0.0.1')
    await once(server, 'listening')
    const { port } = server.address() as AddressInfo
    novu = new Novu({ serverURL: `http://127.0.0.1:${port}`, secretKey: 'bench', retryConfig: { strategy: 'none' } })
  })
  afterAll(() => server.close())

  /** The last request the SDK sent, its host made the bench's and its key taken out. */
  async function sent(call: () => Promise<unknown>): Promise<{ bytes: string; key: string }> {
    captured.length = 0
    // The empty answer fails the SDK's own checks of the response; only the request matters here.
    await call().catch(() => undefined)
    const request = captured.join('')
    const key = /\r\nidempotency-key: ([^\r]*)\r\n/.exec(request)?.[1] ?? ''
    return { bytes: request.replace(/\r\nhost: [^\r]*\r\n/, '\r\nhost: 127.0.0.1\r\n'), key }
  }

  it('writes set-primary (no body) byte for byte as the SDK does, but for the key', async () => {
    const { bytes, key } = await sent(() => novu.integrations.setAsPrimary(INTEGRATIONS.mailgun))
    expect(bytes).toBe(sdkRequest('POST', `/v1/integrations/${INTEGRATIONS.mailgun}/set-primary`, undefined, ['idempotency-key', key]).toString('latin1'))
  })

  it('writes mark-as (a JSON body) byte for byte as the SDK does, but for the key', async () => {
    const body = { messageId: [adaMessage(1)], markAs: 'read' as const }
    const { bytes, key } = await sent(() => novu.subscribers.messages.markAllAs(body, ADA))
    expect(bytes).toBe(sdkRequest('POST', `/v1/subscribers/${ADA}/messages/mark-as`, JSON.stringify(body), ['idempotency-key', key]).toString('latin1'))
  })

  it("makes keys of the SDK's shape, a fresh one per call", async () => {
    const { key } = await sent(() => novu.integrations.setAsPrimary(INTEGRATIONS.mailgun))
    const shape = /^\d{13}[0-9a-z]{1,9}$/
    expect(key).toMatch(shape)
    expect(sdkKey(0)).toMatch(shape)
    expect(sdkKey(1)).not.toBe(sdkKey(2))
    expect(sdkKey(123_456_789).length).toBe(22)
  })
})
