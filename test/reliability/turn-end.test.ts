import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { MockServer } from '../../src/app/create-mock-server.ts'
import { halfClosedExchange } from '../helpers/half-closed.ts'
import { startTestServer } from '../helpers/start-test-server.ts'
import { ADA } from '../helpers/well-known.ts'

/** A GET of `path`, the client's side closed right after it, and its answer's status and body. */
async function halfClosedGet(port: number, path: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const { status, text } = await halfClosedExchange(port, `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: ApiKey turn-end\r\n\r\n`)
  return { status, body: JSON.parse(text) as Record<string, unknown> }
}

describe('answers ended together at the end of their turn (docs/decisions.md, 2026-11-28)', () => {
  let mock: MockServer
  beforeAll(async () => {
    mock = await startTestServer()
  })
  afterAll(() => mock.close())

  it('still answers a client that closed its side right after its request', async () => {
    // Bound beyond loopback, /__admin answers its 404 at once: the FIN then arrives in the same turn.
    const open = await startTestServer({ host: '0.0.0.0' })
    try {
      for (let i = 0; i < 5; i++) {
        const api = await halfClosedGet(open.port, `/v2/subscribers/${ADA}`)
        expect(api.status).toBe(200)
        expect(api.body).toMatchObject({ subscriberId: ADA })
        const admin = await halfClosedGet(open.port, '/__admin/state')
        expect(admin.status).toBe(404)
        expect(admin.body).toMatchObject({ statusCode: 404 })
      }
    } finally {
      await open.close()
    }
  })

  it('gives each of many connections answered in one turn its own answer', async () => {
    const ids = Array.from({ length: 40 }, (_, i) => `turn-end-${i}`)
    const answers = await Promise.all(ids.map((id) => halfClosedGet(mock.port, `/v2/subscribers/${id}`)))
    expect(answers.map((answer) => answer.status)).toEqual(ids.map(() => 404))
    expect(answers.map((answer) => answer.body.path)).toEqual(ids.map((id) => `/v2/subscribers/${id}`))
  })
})
