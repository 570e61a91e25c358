import { once } from 'node:events'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import SwaggerParser from '@apidevtools/swagger-parser'
import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { API_DOCUMENT } from '../../src/contract/load-contract.ts'
import { createApp } from '../../src/app/create-app.ts'
import type { MockServer } from '../../src/app/create-mock-server.ts'
import { OPERATION_IDS, operationIdsOf } from '../helpers/operations.ts'
import { startTestServer } from '../helpers/start-test-server.ts'


let server: MockServer
beforeAll(async () => {
  server = await startTestServer()
})
afterAll(() => server.close())


describe('the API document, served', () => {
  it('GET /openapi.yaml answers the document as written, as YAML, without any key', async () => {
    const res = await request(server.url).get('/openapi.yaml').buffer(true).parse((r, done) => {
      let text = ''
      r.on('data', (chunk: Buffer) => (text += chunk.toString()))
      r.on('end', () => done(null, text))
    })
    expect(res.status).toBe(200)
    expect(res.headers['content-type']).toBe('application/yaml; charset=utf-8')
    expect(res.body).toBe(readFileSync(API_DOCUMENT, 'utf8'))
    // It parses as an OpenAPI document on its own, away from the repository.
    const copy = join(mkdtempSync(join(tmpdir(), 'novu-mock-doc-')), 'openapi.yaml')
    writeFileSync(copy, res.body as string)
    await expect(SwaggerParser.validate(copy)).resolves.toBeDefined()
  })

  it('GET /openapi.json answers the same document as valid JSON', async () => {
    const res = await request(server.url).get('/openapi.json')
    expect(res.status).toBe(200)
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8')
    const document = JSON.parse(res.text)
    expect(document.openapi).toBe('3.1.0')
    expect(operationIdsOf(document).sort()).toEqual([...OPERATION_IDS].sort())
    expect(document).toEqual(await SwaggerParser.parse(API_DOCUMENT))
  })

  it('GET /docs answers the reference page, its scripts and styles all from this server', async () => {
    const res = await request(server.url).get('/docs')
    expect(res.status).toBe(200)
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8')
    expect(res.headers['content-security-policy']).toContain("default-src 'self'")
    const sources = [...res.text.matchAll(/(?:src|href)="([^"]+)"/g)].map((match) => match[1]!)
    expect(sources.length).toBeGreaterThanOrEqual(4)
    for (const source of sources) {
      expect(source, source).toMatch(/^\/docs\//)
      const asset = await request(server.url).get(source)
      expect(asset.status, source).toBe(200)
    }
    expect((await request(server.url).get('/docs/swagger-ui/swagger-ui-bundle.js')).headers['content-type']).toBe('text/javascript; charset=utf-8')
  })

  it('does not serve swagger-ui-dist’s demo page (it points at a remote petstore)', async () => {
    for (const path of ['/docs/swagger-ui/index.html', '/docs/swagger-ui/swagger-initializer.js']) {
      expect((await request(server.url).get(path)).status, path).toBe(404)
    }
  })
})

describe('GET /, the landing page', () => {
  const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8'

  it('shows a browser a page linking the reference, the inspector and the document, without any key', async () => {
    const res = await request(server.url).get('/').set('Accept', BROWSER_ACCEPT)
    expect(res.status).toBe(200)
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8')
    expect(res.headers.vary).toContain('Accept')
    for (const href of ['/docs', '/__admin/ui', '/openapi.json']) expect(res.text).toContain(`href="${href}"`)
    expect(res.text).toContain('ApiKey &lt;any key&gt;')
  })

  it.each([['application/json'], ['*/*']])('answers Accept: %s with the same links as JSON, each of which answers', async (accept) => {
    const res = await request(server.url).get('/').set('Accept', accept)
    expect(res.status).toBe(200)
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8')
    expect(res.body).toMatchObject({ name: 'novu-mock', authorization: 'ApiKey <any key>', links: { docs: '/docs', inspector: '/__admin/ui', openapi: '/openapi.json' } })
    for (const href of Object.values(res.body.links as Record<string, string>)) {
      expect([href, (await request(server.url).get(href).redirects(1)).status]).toEqual([href, 200])
    }
  })

  it('is the only method there: any other is an unknown route', async () => {
    const res = await request(server.url).post('/').send({})
    expect(res.status).toBe(404)
    expect(res.body.message).toBe('Cannot POST /')
  })
})

describe('the reference on a server bound to a public host', () => {
  // The app is told its host is public, but the test listens on loopback only.
  let open: Server
  let url: string
  beforeAll(async () => {
    open = createServer(await createApp({ host: '0.0.0.0', logLevel: 'silent' })).listen(0, '127.0.0.1')
    await once(open, 'listening')
    url = `http://127.0.0.1:${(open.address() as AddressInfo).port}`
  })
  afterAll(() => new Promise<void>((resolve) => open.close(() => resolve())))

  it.each(['/', '/docs', '/openapi.yaml', '/openapi.json'])('%s stays public (outside the admin guard)', async (path) => {
    expect((await request(url).get(path)).status).toBe(200)
  })
})

describe('the reference in proxy mode', () => {
  let proxy: MockServer
  beforeAll(async () => {
    // Port 9 (discard) on loopback: anything forwarded there fails as a 502.
    proxy = await startTestServer({ proxy: { upstream: 'http://127.0.0.1:9', strict: false } })
  })
  afterAll(() => proxy.close())

  it.each(['/', '/docs', '/openapi.json'])('%s is answered locally, not forwarded', async (path) => {
    expect((await request(proxy.url).get(path)).status).toBe(200)
    expect((await request(proxy.url).get('/not-a-route')).status).toBe(502)
  })
})
