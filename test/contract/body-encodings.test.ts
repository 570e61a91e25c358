import { request } from 'node:http'
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { MockServer } from '../../src/app/create-mock-server.ts'
import { expectContract } from '../helpers/expect-contract.ts'
import { rawRequest, type RawAnswer } from '../helpers/raw-request.ts'
import { freshTenant, startTestServer } from '../helpers/start-test-server.ts'
import { ADA } from '../helpers/well-known.ts'

const CREDENTIALS = `/v1/subscribers/${ADA}/credentials`

let server: MockServer
beforeAll(async () => {
  server = await startTestServer()
})
afterAll(() => server.close())

const body = (token: string) => JSON.stringify({ providerId: 'fcm', credentials: { deviceTokens: [token] } })

function patch(auth: { Authorization: string }, sent: Buffer, encoding?: string): Promise<RawAnswer> {
  const headers: Record<string, string> = { ...auth, 'Content-Type': 'application/json' }
  if (encoding !== undefined) headers['Content-Encoding'] = encoding
  return rawRequest(`${server.url}${CREDENTIALS}`, { method: 'PATCH', headers, body: sent })
}

/** A body sent in `pieces` writes with no Content-Length (chunked), each as its own packet. */
function patchInPieces(auth: { Authorization: string }, pieces: Buffer[]): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const sent = request(`${server.url}${CREDENTIALS}`, { method: 'PATCH', headers: { ...auth, 'Content-Type': 'application/json' }, agent: false }, (res) => {
      let text = ''
      res.on('data', (chunk: Buffer) => (text += chunk.toString()))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }))
    })
    sent.on('error', reject)
    for (const piece of pieces) sent.write(piece)
    sent.end()
  })
}

async function tokensOf(auth: { Authorization: string }): Promise<string[]> {
  const read = await rawRequest(`${server.url}/v2/subscribers/${ADA}`, { headers: auth })
  expect(read.status).toBe(200)
  return (read.body as { channels: { credentials: { deviceTokens: string[] } }[] }).channels[0]!.credentials.deviceTokens
}

describe('a body in a Content-Encoding', () => {
  it.each([
    ['gzip', gzipSync],
    ['x-gzip', gzipSync],
    ['deflate', deflateSync],
    ['br', brotliCompressSync],
  ] as const)('%s: read inflated, the change stored', async (encoding, compress) => {
    const auth = freshTenant()
    const res = await patch(auth, compress(Buffer.from(body(`t-${encoding}`))), encoding)
    expect(res.status).toBe(200)
    await expectContract('upsertSubscriberCredentials', res)
    expect(await tokensOf(auth)).toContain(`t-${encoding}`)
  })

  it('an encoding the mock cannot undo: 415 in body-parser\'s words, nothing stored', async () => {
    const auth = freshTenant()
    const res = await patch(auth, Buffer.from(body('t-compress')), 'compress')
    expect([res.status, (res.body as { message: string }).message]).toEqual([415, 'unsupported content encoding "compress"'])
    await expectContract('upsertSubscriberCredentials', res)
    expect(await tokensOf(auth)).not.toContain('t-compress')
  })

  it('bytes that do not inflate: 400 naming the problem, nothing stored', async () => {
    const auth = freshTenant()
    const res = await patch(auth, Buffer.from(body('t-broken')), 'gzip')
    expect(res.status).toBe(400)
    expect((res.body as { message: string }).message).toMatch(/^Malformed request body: /)
    await expectContract('upsertSubscriberCredentials', res)
    expect(await tokensOf(auth)).not.toContain('t-broken')
  })

  it('a small body that inflates past 1 MiB: 413', async () => {
    const auth = freshTenant()
    const bomb = gzipSync(Buffer.from(body('z'.repeat(5_000_000))))
    expect(bomb.length).toBeLessThan(100_000)
    const res = await patch(auth, bomb, 'gzip')
    expect(res.status).toBe(413)
    await expectContract('upsertSubscriberCredentials', res)
  })
})

describe('a body in many pieces', () => {
  it('joined in order, however many pieces', async () => {
    const auth = freshTenant()
    const token = Array.from({ length: 90_000 }, (_, i) => String.fromCharCode(97 + (i % 26))).join('')
    const whole = Buffer.from(body(token))
    const pieces = Array.from({ length: Math.ceil(whole.length / 1000) }, (_, i) => whole.subarray(i * 1000, (i + 1) * 1000))
    const res = await patchInPieces(auth, [...pieces, ...pieces.map(() => Buffer.from(' '))])
    expect(res.status).toBe(200)
    expect(await tokensOf(auth)).toContain(token)
  })

  it('past 1 MiB without a Content-Length: 413, nothing stored', async () => {
    const auth = freshTenant()
    const whole = Buffer.from(body('p'.repeat(1_200_000)))
    const res = await patchInPieces(auth, [whole.subarray(0, 600_000), whole.subarray(600_000)])
    expect(res.status).toBe(413)
    expect(await tokensOf(auth)).not.toContain('p'.repeat(1_200_000))
  })

  it('a client gone before the end of its body leaves the server answering', async () => {
    const auth = freshTenant()
    await new Promise<void>((resolve) => {
      const sent = request(`${server.url}${CREDENTIALS}`, { method: 'PATCH', headers: { ...auth, 'Content-Type': 'application/json', 'Content-Length': '1000' }, agent: false })
      sent.on('error', () => resolve())
      sent.write('{"providerId":"fcm",', () => setTimeout(() => sent.destroy(), 20))
      sent.on('close', () => resolve())
    })
    const res = await patch(auth, Buffer.from(body('t-after')))
    expect(res.status).toBe(200)
    expect(await tokensOf(auth)).toEqual(expect.arrayContaining(['t-after']))
  })
})
