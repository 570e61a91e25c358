import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { MockServer } from '../../src/app/create-mock-server.ts'
import { expectContract } from '../helpers/expect-contract.ts'
import { freshTenant, startTestServer } from '../helpers/start-test-server.ts'
import { ADA, adaMessage } from '../helpers/well-known.ts'

const MARK_AS = `/v1/subscribers/${ADA}/messages/mark-as`
const APP = 'http://localhost:5173'
const list = (value: string | undefined) => (value ?? '').split(',').map((item) => item.trim().toLowerCase())

let open: MockServer
let restricted: MockServer
let off: MockServer
beforeAll(async () => {
  ;[open, restricted, off] = await Promise.all([
    startTestServer(),
    startTestServer({ corsOrigins: ['http://localhost:3000'], apiKeys: ['good-key'] }),
    startTestServer({ corsOrigins: 'none' }),
  ])
})
afterAll(() => Promise.all([open, restricted, off].map((server) => server.close())))

const preflight = (url: string, path: string, origin = APP) =>
  request(url).options(path).set({ Origin: origin, 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'authorization,content-type,idempotency-key,prefer' })

describe('CORS, on by default for any origin', () => {
  it('answers a preflight 204 with the methods and headers a browser client needs', async () => {
    const res = await preflight(open.url, MARK_AS)
    expect(res.status).toBe(204)
    expect(res.text).toBe('')
    expect(res.headers['access-control-allow-origin']).toBe('*')
    expect(list(res.headers['access-control-allow-methods'])).toEqual(expect.arrayContaining(['get', 'post', 'patch', 'put', 'delete']))
    expect(list(res.headers['access-control-allow-headers'])).toEqual(expect.arrayContaining(['authorization', 'content-type', 'idempotency-key', 'prefer']))
    expect(res.headers['access-control-max-age']).toBe('600')
  })

  it('lets the answer through to the page, with the headers the API sends exposed', async () => {
    const res = await request(open.url).post(MARK_AS).set({ ...freshTenant(), Origin: APP, 'idempotency-key': 'cors-1' }).send({ messageId: adaMessage(1), markAs: 'read' })
    expect(res.status).toBe(201)
    await expectContract('markMessagesAs', res)
    expect(res.headers['access-control-allow-origin']).toBe('*')
    const exposed = list(res.headers['access-control-expose-headers'])
    expect(exposed).toEqual(expect.arrayContaining(['idempotency-key', 'idempotency-replay', 'ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset', 'ratelimit-policy', 'retry-after']))
    expect(res.headers['idempotency-key']).toBe('cors-1')
    expect(res.headers['ratelimit-remaining']).toMatch(/^\d+$/)
  })

  it('echoes the headers a preflight asks for, so a frontend\'s tracing headers pass too', async () => {
    const asked = 'authorization,content-type,traceparent,x-request-id,sentry-trace'
    const res = await request(open.url).options(MARK_AS).set({ Origin: APP, 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': asked })
    expect(res.status).toBe(204)
    expect(list(res.headers['access-control-allow-headers'])).toEqual(asked.split(','))
    expect(list(res.headers.vary)).toContain('access-control-request-headers')
    const actual = await request(open.url).get(`/v2/subscribers/${ADA}`).set({ ...freshTenant(), Origin: APP, traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' })
    expect(actual.status).toBe(200)
    expect(actual.headers['access-control-allow-origin']).toBe('*')
  })

  it('covers the routes express serves: the reference pages and the 404 fallback', async () => {
    const document = await request(open.url).get('/openapi.json').set('Origin', APP)
    expect(document.status).toBe(200)
    expect(document.headers['access-control-allow-origin']).toBe('*')
    const missing = await request(open.url).get('/v9/nowhere').set('Origin', APP)
    expect(missing.status).toBe(404)
    expect(missing.headers['access-control-allow-origin']).toBe('*')
  })

  it('never answers another site\'s page on /__admin: no Access-Control-* header, preflight included', async () => {
    const tenant = freshTenant()
    for (const path of ['/__admin/health', '/__admin/state', '/__ADMIN/health', '/__admin/requests?limit=1']) {
      const res = await request(open.url).get(path).set({ ...tenant, Origin: APP })
      expect([path, res.status]).toEqual([path, 200]) // answered to a client that is not a browser page, as without Origin
      expect(Object.keys(res.headers).filter((name) => name.startsWith('access-control-'))).toEqual([])
    }
    // A preflight without Access-Control-Allow-Origin fails in the browser, which then sends nothing.
    for (const path of ['/__admin/state', '/__admin/reset?all=true']) {
      const pre = await preflight(open.url, path)
      expect([path, Object.keys(pre.headers).filter((name) => name.startsWith('access-control-'))]).toEqual([path, []])
    }
  })

  it('adds nothing to a request without an Origin (not from a browser)', async () => {
    const res = await request(open.url).get(`/v2/subscribers/${ADA}`).set(freshTenant())
    expect(res.status).toBe(200)
    expect(Object.keys(res.headers).filter((name) => name.startsWith('access-control-'))).toEqual([])
    // An OPTIONS that is no preflight is an unknown route, as before.
    expect((await request(open.url).options(MARK_AS)).status).toBe(404)
  })
})

describe('CORS restricted with --cors-origins', () => {
  it('allows a listed origin by name, and answers a preflight before any API key is checked', async () => {
    const res = await preflight(restricted.url, MARK_AS, 'http://localhost:3000')
    expect(res.status).toBe(204) // no Authorization sent, and strict keys: still not a 401
    expect(res.headers['access-control-allow-origin']).toBe('http://localhost:3000')
    expect(list(res.headers.vary)).toContain('origin')
    const actual = await request(restricted.url).get(`/v2/subscribers/${ADA}`).set({ Origin: 'http://localhost:3000', Authorization: 'ApiKey good-key' })
    expect(actual.status).toBe(200)
    expect(actual.headers['access-control-allow-origin']).toBe('http://localhost:3000')
  })

  it('gives another origin no Access-Control-Allow-Origin, so its browser keeps the answer from the page', async () => {
    const pre = await preflight(restricted.url, MARK_AS, 'http://evil.example')
    expect(pre.headers['access-control-allow-origin']).toBeUndefined()
    const actual = await request(restricted.url).get(`/v2/subscribers/${ADA}`).set({ Origin: 'http://evil.example', Authorization: 'ApiKey good-key' })
    expect(actual.headers['access-control-allow-origin']).toBeUndefined()
    expect(list(actual.headers.vary)).toContain('origin')
  })

  it('answers each origin its own headers, however many origins have called', async () => {
    const call = (origin: string) => request(restricted.url).get(`/v2/subscribers/${ADA}`).set({ Origin: origin, Authorization: 'ApiKey good-key' })
    const others = await Promise.all(Array.from({ length: 70 }, (_, i) => call(`http://other-${i}.example`)))
    expect(others.map((res) => res.headers['access-control-allow-origin'])).toEqual(others.map(() => undefined))
    for (const origin of ['http://localhost:3000', 'http://other-1.example', 'http://localhost:3000']) {
      const res = await call(origin)
      expect(res.status).toBe(200)
      expect(res.headers['access-control-allow-origin']).toBe(origin === 'http://localhost:3000' ? origin : undefined)
      expect(list(res.headers.vary)).toContain('origin')
    }
  })

  it('still refuses an unknown key on the actual request', async () => {
    const res = await request(restricted.url).get(`/v2/subscribers/${ADA}`).set({ Origin: 'http://localhost:3000', Authorization: 'ApiKey other' })
    expect(res.status).toBe(401)
    expect(res.headers['access-control-allow-origin']).toBe('http://localhost:3000') // the page may read why
  })
})

describe('CORS off (--cors-origins none)', () => {
  it('sends no CORS headers, and a preflight is an unknown route', async () => {
    const pre = await preflight(off.url, MARK_AS)
    expect(pre.status).toBe(404)
    expect(pre.body.message).toBe(`Cannot OPTIONS ${MARK_AS}`)
    expect(pre.headers['access-control-allow-origin']).toBeUndefined()
    const actual = await request(off.url).get(`/v2/subscribers/${ADA}`).set({ ...freshTenant(), Origin: APP })
    expect(actual.status).toBe(200)
    expect(Object.keys(actual.headers).filter((name) => name.startsWith('access-control-'))).toEqual([])
  })
})
