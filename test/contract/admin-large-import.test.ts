import { once } from 'node:events'
import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createApp } from '../../src/app/create-app.ts'
import { SLICED_JSON_BYTES } from '../../src/core/body/body-reading.ts'
import type { TenantState } from '../../src/store/records.ts'
import { expectContract } from '../helpers/expect-contract.ts'
import { rawRequest, type RawAnswer } from '../helpers/raw-request.ts'
import { readState } from '../helpers/read-state.ts'
import { freshTenant } from '../helpers/start-test-server.ts'

// A state of a few MB: read and checked in slices (docs/behaviour.md §6), as a 50 MB one is.
let server: Server
let url: string
let large: TenantState
let largeText: string
beforeAll(async () => {
  const app = await createApp({ logLevel: 'silent' })
  server = createServer(app).listen(0, '127.0.0.1')
  await once(server, 'listening')
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  const source = { Authorization: 'ApiKey large-import-source' }
  const created = await rawRequest(`${url}/__admin/tenants`, admin('POST', freshTenant(), { apiKey: 'large-import-source', subscribers: 2_000, channelConnections: 8_000, messages: 1_000 }))
  expect(created.status).toBe(201)
  large = await readState(url, source)
  largeText = JSON.stringify(large)
}, 60_000)
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

function admin(method: string, auth: { Authorization: string }, body?: unknown): { method: string; headers: Record<string, string>; body?: string } {
  const text = typeof body === 'string' ? body : body === undefined ? undefined : JSON.stringify(body)
  return { method, headers: { ...auth, 'content-type': 'application/json' }, ...(text === undefined ? {} : { body: text }) }
}
const putState = (auth: { Authorization: string }, text: string) => rawRequest(`${url}/__admin/state`, admin('PUT', auth, text))

describe('PUT /__admin/state of a large state', () => {
  it('imports every record', async () => {
    expect(largeText.length).toBeGreaterThan(40 * SLICED_JSON_BYTES)
    const auth = freshTenant()
    const res = await putState(auth, largeText)
    expect(res.status).toBe(200)
    await expectContract('putState', res, 'admin')
    expect(res.body).toEqual({ subscribers: large.subscribers.length, integrations: large.integrations.length, channelConnections: large.channelConnections.length, messages: large.messages.length })
    expect(await readState(url, auth)).toEqual(large)
  })

  it('answers 422 for a record broken deep in it, naming that record, and changes nothing', async () => {
    const auth = freshTenant()
    const before = await readState(url, auth)
    const broken = structuredClone(large)
    const last = broken.channelConnections.length - 3
    delete (broken.channelConnections[last] as { _id?: string })._id
    Object.assign(broken.messages[broken.messages.length - 1]!, { status: 'lost' })
    const res = await putState(auth, JSON.stringify(broken))
    expect(res.status).toBe(422)
    await expectContract('putState', res, 'admin')
    const errors = (res.body as { errors: Record<string, { messages: string[] }> }).errors
    expect(Object.keys(errors)).toEqual([`channelConnections.${last}._id`, `messages.${broken.messages.length - 1}.status`])
    expect(errors[`channelConnections.${last}._id`]!.messages).toEqual(["must have required property '_id'"])
    expect(await readState(url, auth)).toEqual(before)
  })

  it('answers 422 for an id twice, the records valid each on their own, and changes nothing', async () => {
    const auth = freshTenant()
    const before = await readState(url, auth)
    const broken = structuredClone(large)
    const last = broken.channelConnections.length - 1
    broken.channelConnections[last]!._id = broken.channelConnections[0]!._id
    const res = await putState(auth, JSON.stringify(broken))
    expect(res.status).toBe(422)
    await expectContract('putState', res, 'admin')
    expect(Object.keys((res.body as { errors: object }).errors)).toEqual([`channelConnections.${last}`])
    expect(await readState(url, auth)).toEqual(before)
  })

  it('answers 400 with JSON.parse’s own words for a malformed one, and changes nothing', async () => {
    const auth = freshTenant()
    const before = await readState(url, auth)
    const malformed = largeText.replace(/\},\{/, '},,{').slice(0, -10)
    const words = (() => {
      try {
        JSON.parse(malformed)
      } catch (error) {
        return (error as Error).message
      }
    })()
    const res = await putState(auth, malformed)
    expect(res.status).toBe(400)
    await expectContract('putState', res, 'admin')
    expect((res.body as { message: string }).message).toBe(words)
    expect(await readState(url, auth)).toEqual(before)
  })

  it('answers 400 for a record nested deeper than 64 levels, however large the state', async () => {
    const auth = freshTenant()
    const deep = `${'['.repeat(70)}1${']'.repeat(70)}`
    const res = await putState(auth, largeText.replace(/"messages":\[/, `"messages":[{"payload":${deep}},`))
    expect(res.status).toBe(400)
    await expectContract('putState', res, 'admin')
    expect((res.body as { message: string }).message).toMatch(/nested deeper than 64 levels/)
  })

  it('leaves another tenant’s call answered while the import is under way', async () => {
    // The import is under way once the server has read its whole body: only then is the other call sent.
    const bodyRead = new Promise<void>((resolve) => {
      const watch = (req: IncomingMessage) => {
        if (req.method !== 'PUT') return
        server.off('request', watch)
        req.once('end', () => resolve())
      }
      server.on('request', watch)
    })
    const order: string[] = []
    const note = (name: string) => (answer: RawAnswer) => {
      order.push(`${name} ${answer.status}`)
      return answer
    }
    const importing = putState(freshTenant(), largeText).then(note('import'))
    await bodyRead
    const other = rawRequest(`${url}/v2/subscribers/demo-subscriber-1`, { headers: freshTenant() }).then(note('other'))
    await Promise.all([importing, other])
    expect(order).toEqual(['other 200', 'import 200'])
  })
})
