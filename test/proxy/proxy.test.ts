import { once } from 'node:events'
import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { MockServer } from '../../src/app/create-mock-server.ts'
import { startTestServer } from '../helpers/start-test-server.ts'
import { ADA } from '../helpers/well-known.ts'

const AUTH = { Authorization: 'ApiKey proxy-tenant' }
const SUBSCRIBER = { subscriberId: ADA, _organizationId: 'o', _environmentId: 'e', deleted: false, createdAt: '2024-01-01T00:00:00.000Z', updatedAt: '2024-01-01T00:00:00.000Z' }

/** A stand-in for the real service: answers a few routes, one of them off the contract. */
function upstreamStub(seen: { method: string; url: string; body: string; auth?: string }[]): Server {
  return createServer(async (req: IncomingMessage, res) => {
    let body = ''
    for await (const chunk of req) body += chunk
    seen.push({ method: req.method!, url: req.url!, body, auth: req.headers.authorization })
    const send = (status: number, payload: unknown) => res.writeHead(status, { 'Content-Type': 'application/json', 'X-Upstream': 'yes' }).end(JSON.stringify(payload))
    if (req.url === `/v2/subscribers/${ADA}`) return send(200, { data: SUBSCRIBER })
    if (req.url === '/v2/subscribers/broken') return send(200, { ...SUBSCRIBER, firstName: 42 })
    if (req.url?.startsWith('/v1/channel-connections')) return send(200, { data: [], next: null, previous: null, totalCount: 0, totalCountCapped: false })
    send(404, { statusCode: 404, timestamp: '2024-01-01T00:00:00.000Z', path: req.url, message: 'nope' })
  })
}

describe.each([false, true])('--proxy (strict: %s)', (strict) => {
  const seen: { method: string; url: string; body: string; auth?: string }[] = []
  let upstream: Server
  let proxy: MockServer
  beforeAll(async () => {
    upstream = upstreamStub(seen).listen(0, '127.0.0.1')
    await once(upstream, 'listening')
    proxy = await startTestServer({ proxy: { upstream: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`, strict } })
  })
  afterAll(async () => {
    await proxy.close()
    await new Promise<void>((resolve) => upstream.close(() => resolve()))
  })

  const journal = async () => (await request(proxy.url).get('/__admin/requests').set(AUTH)).body.requests as { path: string; status: number; violations?: { direction: string; instancePath?: string; value?: unknown }[] }[]

  it('forwards a call unchanged and passes a valid (enveloped) answer through untouched', async () => {
    const res = await request(proxy.url).get(`/v2/subscribers/${ADA}`).set(AUTH)
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ data: SUBSCRIBER })
    expect(res.headers['x-upstream']).toBe('yes')
    expect(seen.at(-1)).toMatchObject({ method: 'GET', url: `/v2/subscribers/${ADA}`, auth: AUTH.Authorization })
  })

  it('forwards a body nested thousands deep, and journals it as text, not walked', async () => {
    const raw = `{"providerId":"fcm","credentials":{"deviceTokens":["a"]},"deep":${'['.repeat(6_000)}${']'.repeat(6_000)}}`
    const sent = await request(proxy.url).patch('/v1/subscribers/deep/credentials').set(AUTH).set('Content-Type', 'application/json').send(raw)
    expect(sent.status).toBe(strict ? 502 : 404)
    expect(seen.at(-1)).toMatchObject({ method: 'PATCH', body: raw })
    const entries = (await request(proxy.url).get('/__admin/requests').set(AUTH)).body.requests as { path: string; requestBody?: unknown }[]
    expect(entries.find((entry) => entry.path === '/v1/subscribers/deep/credentials')?.requestBody).toBe(raw.slice(0, 16 * 1024))
  })

  it('forwards a body byte for byte', async () => {
    const raw = '{"providerId":"fcm",  "credentials":{"deviceTokens":["a"]}}'
    await request(proxy.url).patch('/v1/subscribers/x/credentials').set(AUTH).set('Content-Type', 'application/json').send(raw)
    expect(seen.at(-1)).toMatchObject({ method: 'PATCH', body: raw })
  })

  it('records a response violation with its direction, field and value', async () => {
    const res = await request(proxy.url).get('/v2/subscribers/broken').set(AUTH)
    if (strict) {
      expect(res.status).toBe(502)
      expect(res.body.ctx.violations).toContainEqual(expect.objectContaining({ direction: 'response', instancePath: '/firstName', value: 42 }))
    } else {
      expect(res.status).toBe(200)
      expect(res.body.firstName).toBe(42)
    }
    const entry = (await journal()).find((e) => e.path === '/v2/subscribers/broken')!
    expect(entry.violations).toContainEqual(expect.objectContaining({ direction: 'response', instancePath: '/firstName', value: 42 }))
  })

  it('records a request violation and still forwards the request', async () => {
    const res = await request(proxy.url).get('/v1/channel-connections?limit=500').set(AUTH)
    expect(res.status).toBe(strict ? 502 : 200)
    expect(seen.at(-1)?.url).toBe('/v1/channel-connections?limit=500')
    const entry = (await journal()).filter((e) => e.path === '/v1/channel-connections').at(-1)!
    expect(entry.violations).toContainEqual(expect.objectContaining({ direction: 'request', instancePath: 'limit' }))
  })

  it('forwards paths outside the five operations unchecked, and keeps /__admin local', async () => {
    const res = await request(proxy.url).get('/v1/workflows').set(AUTH)
    expect(res.status).toBe(404)
    expect(res.body.message).toBe('nope')
    expect((await request(proxy.url).get('/__admin/health')).body.status).toBe('ok')
  })
})
