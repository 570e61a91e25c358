import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { MockServer } from '../../src/app/create-mock-server.ts'
import { halfClosedExchange } from '../helpers/half-closed.ts'
import { startTestServer } from '../helpers/start-test-server.ts'

/** One request written as is on its own connection (node's client never sends an absolute-form target). */
const rawExchange = (port: number, head: string) => halfClosedExchange(port, `${head}\r\nConnection: close\r\n\r\n`)

describe('an absolute-form request target is routed and guarded by its path (docs/behaviour.md §6)', () => {
  let mock: MockServer
  beforeAll(async () => {
    mock = await startTestServer()
  })
  afterAll(() => mock.close())

  const host = () => `127.0.0.1:${mock.port}`
  const fromPage = 'Origin: http://evil.example\r\nAccess-Control-Request-Method: GET\r\nAccess-Control-Request-Headers: authorization'

  it.each(['/__admin/state', '/__admin/tenants', '/__ADMIN/requests', '/__admin'])('gives no CORS header to a preflight of http://…%s', async (path) => {
    const answer = await rawExchange(mock.port, `OPTIONS http://${host()}${path} HTTP/1.1\r\nHost: ${host()}\r\n${fromPage}`)
    expect(answer.headers.has('access-control-allow-origin')).toBe(false)
    const read = await rawExchange(mock.port, `GET http://${host()}${path} HTTP/1.1\r\nHost: ${host()}\r\nAuthorization: ApiKey absolute-target\r\nOrigin: http://evil.example`)
    expect(read.headers.has('access-control-allow-origin')).toBe(false)
  })

  it('still answers a preflight of an API path in absolute form', async () => {
    const answer = await rawExchange(mock.port, `OPTIONS http://${host()}/v2/subscribers/demo-subscriber-1 HTTP/1.1\r\nHost: ${host()}\r\n${fromPage}`)
    expect(answer.status).toBe(204)
    expect(answer.headers.get('access-control-allow-origin')).toBe('*')
  })
})

describe('the admin guard reads an absolute-form target by its path', () => {
  it('closes /__admin on a non-loopback bind without the admin token', async () => {
    const mock = await startTestServer({ host: '0.0.0.0' })
    try {
      const host = `127.0.0.1:${mock.port}`
      const answer = await rawExchange(mock.port, `GET http://${host}/__admin/state HTTP/1.1\r\nHost: ${host}\r\nAuthorization: ApiKey absolute-target`)
      expect(answer.status).toBe(404)
    } finally {
      await mock.close()
    }
  })
})
