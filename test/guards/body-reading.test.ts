// Issue 53 row 5 and point 4, issue 57 point 7: bodies read as the live service's parser reads them,
// in any charset it decodes, within its size limits, and before routing or authentication.
import { setupServer } from 'msw/node'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { MockServer } from '../../src/app/create-mock-server.ts'
import { createNovuMock, type NovuMock } from '../../src/msw/index.ts'
import { expectContract, expectErrorDto } from '../helpers/expect-contract.ts'
import { rawRequest, type RawAnswer } from '../helpers/raw-request.ts'
import { startTestServer } from '../helpers/start-test-server.ts'

const MARK_AS = '/v1/subscribers/demo-subscriber-1/messages/mark-as'
const CREDENTIALS = '/v1/subscribers/demo-subscriber-1/credentials'
const M01 = '64f200000000000000000001'
/**
 * A mark-as body carrying `depth` arrays one inside the other under a key whose one character
 * (U+2200) holds the byte of a quote in UTF-16LE: a scan of the bytes sees the arrays inside a string.
 */
const hiddenDepth = (depth: number) => `{"\u2200":${'['.repeat(depth)}${']'.repeat(depth)},"messageId":"${M01}","markAs":"read"}`
const markAs = `{"messageId":"${M01}","markAs":"read"}`

/** Text in UTF-32, big-endian, which Node's Buffer does not write. */
function utf32be(text: string): Buffer {
  const points = [...text].map((char) => char.codePointAt(0)!)
  const bytes = Buffer.alloc(points.length * 4)
  points.forEach((point, i) => bytes.writeUInt32BE(point, i * 4))
  return bytes
}

/** A mark-as body of exactly `size` bytes: valid JSON, padded with spaces. */
const markAsOfSize = (size: number) => markAs + ' '.repeat(size - markAs.length)

/** One request through a door: the node server, or novu-mock/msw in process. */
type Send = (method: string, path: string, body: string | Buffer, headers: Record<string, string>) => Promise<RawAnswer>

/** The cases both doors must answer alike. */
function bodyCases(door: () => Send) {
  const send = (path: string, body: string | Buffer, contentType: string, headers: Record<string, string> = {}, method = 'POST') =>
    door()(method, path, body, { Authorization: `ApiKey body-${crypto.randomUUID()}`, 'Content-Type': contentType, ...headers })

  it('reads UTF-16LE and UTF-32 bodies, and measures their depth on the decoded text', async () => {
    const utf16 = await send(MARK_AS, Buffer.from(markAs, 'utf16le'), 'application/json; charset=utf-16le')
    expect([utf16.status, (utf16.body as { _id: string }[])[0]?._id]).toEqual([201, M01])
    const utf32 = await send(MARK_AS, utf32be(markAs), 'application/json; charset=UTF-32BE')
    expect([utf32.status, (utf32.body as { _id: string }[])[0]?._id]).toEqual([201, M01])
    await expectContract('markMessagesAs', utf32)
    for (const [body, type] of [
      [Buffer.from(hiddenDepth(6_000), 'utf16le'), 'application/json; charset=utf-16le'],
      [utf32be(hiddenDepth(65)), 'application/json; charset=utf-32be'],
    ] as const) {
      const deep = await send(MARK_AS, body, type)
      expect([deep.status, (deep.body as { message: string }).message]).toEqual([400, expect.stringMatching(/deeper than 64 levels/)])
      await expectContract('markMessagesAs', deep)
    }
  })

  it('refuses a field 5,000 deep that the operation would ignore', async () => {
    const body = `{"\u2200":0,"providerId":"fcm","credentials":{"deviceTokens":["t"]},"extra":${'['.repeat(5_000)}${']'.repeat(5_000)}}`
    const answer = await send(CREDENTIALS, Buffer.from(body, 'utf16le'), 'application/json; charset=utf-16le', {}, 'PATCH')
    expect(answer.status).toBe(400)
    await expectContract('upsertSubscriberCredentials', answer)
  })

  it('refuses a charset body-parser does not read with its 415', async () => {
    for (const [charset, message] of [
      ['latin1', 'unsupported charset "LATIN1"'],
      ['utf-foo', 'unsupported charset "UTF-FOO"'],
    ]) {
      const answer = await send(MARK_AS, markAs, `application/json; charset=${charset}`)
      expect([answer.status, (answer.body as { message: string }).message]).toEqual([415, message])
    }
  })

  it('takes 102,400 bytes and refuses one more with a 413', async () => {
    const limit = await send(MARK_AS, markAsOfSize(102_400), 'application/json')
    expect(limit.status).toBe(201)
    const over = await send(MARK_AS, markAsOfSize(102_401), 'application/json')
    expect([over.status, (over.body as { message: string }).message]).toEqual([413, 'Payload Too Large'])
    await expectContract('markMessagesAs', over)
  })

  it('reads a JSON body before routing and authentication', async () => {
    const noKey = await door()('POST', MARK_AS, '{"markAs":', { 'Content-Type': 'application/json' })
    expect(noKey.status).toBe(400)
    await expectContract('markMessagesAs', noKey)
    const unknown = await send('/v1/no-such-route', '{"markAs":', 'application/json')
    expect(unknown.status).toBe(400)
    await expectErrorDto(unknown.body)
    // Above 100 KB on any path but the 26mb routes, which read it (and find it malformed here).
    const large = '{' + ' '.repeat(200 * 1024)
    expect((await send('/v1/no-such-route', large, 'application/json')).status).toBe(413)
    expect((await send('/v1/events/trigger', large, 'application/json')).status).toBe(400)
    expect((await send('/V1/Workflows', large, 'application/json')).status).toBe(400)
    // set-primary takes no body, but reads a JSON one all the same.
    expect((await send('/v1/integrations/64f100000000000000000001/set-primary', '[', 'application/json')).status).toBe(400)
  })
}

describe('the node server', () => {
  let mock: MockServer
  beforeAll(async () => {
    mock = await startTestServer()
  })
  afterAll(() => mock.close())

  bodyCases(() => (method, path, body, headers) => rawRequest(`${mock.url}${path}`, { method, body, headers }))

  it('keeps the control plane to its own limits, and the depth bound on its decoded bodies', async () => {
    const auth = { Authorization: 'ApiKey body-admin', 'Content-Type': 'application/json; charset=utf-16le' }
    const state = await rawRequest(`${mock.url}/__admin/state`, { headers: auth })
    const whole = state.body as { messages: { payload?: unknown }[] }
    whole.messages[0]!.payload = { padding: 'x'.repeat(300 * 1024) }
    const big = JSON.stringify(whole)
    const put = await rawRequest(`${mock.url}/__admin/state`, { method: 'PUT', headers: auth, body: Buffer.from(big, 'utf16le') })
    expect(put.status).toBe(200)
    const rule = `{"\u2200":0,"match":{"operationId":"markMessagesAs","bodyMatches":{"a":${'['.repeat(6_000)}${']'.repeat(6_000)}}},"respond":{"status":503}}`
    const fault = await rawRequest(`${mock.url}/__admin/faults`, { method: 'POST', headers: auth, body: Buffer.from(rule, 'utf16le') })
    expect(fault.status).toBe(400)
    await expectContract('addFault', fault, 'admin')
    const deep = JSON.stringify(whole).replace('{', `{"\u2200":0,"deep":${'['.repeat(6_000)}${']'.repeat(6_000)},`)
    const deepPut = await rawRequest(`${mock.url}/__admin/state`, { method: 'PUT', headers: auth, body: Buffer.from(deep, 'utf16le') })
    expect(deepPut.status).toBe(400)
    await expectContract('putState', deepPut, 'admin')
  })

  it.each([
    ['getSubscriber', 'GET', '/v2/subscribers/demo-subscriber-1'],
    ['listChannelConnections', 'GET', '/v1/channel-connections'],
    ['setPrimaryIntegration', 'POST', '/v1/integrations/64f100000000000000000001/set-primary'],
  ])('%s, which takes no body, answers a refused JSON one as its document says', async (id, method, path) => {
    // Node's client frames a GET's body only with a length given.
    const send = (body: string, type = 'application/json') =>
      rawRequest(`${mock.url}${path}`, { method, body, headers: { Authorization: 'ApiKey body-none', 'Content-Type': type, 'Content-Length': String(Buffer.byteLength(body)) } })
    for (const [answer, status] of [
      [await send('{"a":'), 400],
      [await send(`{"a":"${'x'.repeat(102_400)}"}`), 413],
      [await send('{}', 'application/json; charset=latin1'), 415],
    ] as const) {
      expect(answer.status).toBe(status)
      await expectContract(id, answer)
    }
  })

  it('journals a refused body under the tenant the call names', async () => {
    const auth = { Authorization: 'ApiKey body-journal' }
    const answer = await rawRequest(`${mock.url}${MARK_AS}`, { method: 'POST', headers: { ...auth, 'Content-Type': 'application/json' }, body: '{' })
    expect(answer.status).toBe(400)
    const journal = await rawRequest(`${mock.url}/__admin/requests`, { headers: auth })
    expect((journal.body as { requests: { status: number }[] }).requests.map((entry) => entry.status)).toEqual([400])
  })
})

describe('novu-mock/msw', () => {
  const BASE = 'https://api.novu.co'
  let novu: NovuMock
  const server = setupServer()
  beforeAll(async () => {
    novu = await createNovuMock()
    server.use(...novu.handlers)
    server.listen({ onUnhandledRequest: 'error' })
  })
  afterAll(async () => {
    server.close()
    await novu.close()
  })

  bodyCases(() => async (method, path, body, headers) => {
    const response = await fetch(`${BASE}${path}`, { method, body: typeof body === 'string' ? body : new Uint8Array(body), headers })
    const text = await response.text()
    let parsed: unknown
    try {
      parsed = JSON.parse(text)
    } catch {
      parsed = undefined
    }
    return { status: response.status, headers: Object.fromEntries(response.headers), text, body: parsed }
  })
})
