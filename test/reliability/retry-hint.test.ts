import { Novu } from '@novu/api'
import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { MockServer } from '../../src/app/create-mock-server.ts'
import { createLogger } from '../../src/log/logger.ts'
import { hashOfKey } from '../../src/log/request-log.ts'
import { startTestServer } from '../helpers/start-test-server.ts'
import { ADA } from '../helpers/well-known.ts'

/**
 * A client retrying a call the mock answers 503 or 429 (the official SDK's default) is told, in
 * one `warn` line per key and minute, of the SDK's `retryConfig` fix: otherwise a test only hangs.
 */
const lines: string[] = []
let server: MockServer
beforeAll(async () => {
  server = await startTestServer({ logger: createLogger('warn', { write: (line: string) => void lines.push(line) }) })
})
afterAll(() => server.close())

const warnings = (key: string) =>
  lines.map((line) => JSON.parse(line) as { level: number; msg: string; tenant?: string; call?: string; status?: number }).filter((line) => line.level === 40 && line.tenant === hashOfKey(key))

async function unavailable(key: string): Promise<void> {
  const res = await request(server.url).post('/__admin/faults').set('Authorization', `ApiKey ${key}`).send({ preset: 'unavailable', match: { operationId: 'getSubscriber' } })
  expect(res.status).toBe(201)
}
const get = (key: string) => request(server.url).get(`/v2/subscribers/${ADA}`).set('Authorization', `ApiKey ${key}`)

describe('a client that retries 503s and 429s', () => {
  it('gets one warn line per key and minute once a call is answered 503 more than five times, naming retryConfig', async () => {
    const key = `retrying-${crypto.randomUUID()}`
    await unavailable(key)
    for (let i = 0; i < 5; i++) expect((await get(key)).status).toBe(503)
    expect(warnings(key)).toEqual([])
    for (let i = 0; i < 7; i++) expect((await get(key)).status).toBe(503)
    await expect.poll(() => warnings(key).length).toBe(1)
    const [warning] = warnings(key)
    expect(warning).toMatchObject({ call: `GET /v2/subscribers/${ADA}`, status: 503 })
    expect(warning!.msg).toMatch(/^a client repeats GET \/v2\/subscribers\/demo-subscriber-1, answered 503 more than 5 times within 10 s: the official SDK retries .*retryConfig: \{ strategy: 'none' \}/)
    expect(lines.join('')).not.toContain(key)
  })

  it('is said of a rate-limited key too, and of no key that was answered', async () => {
    const limited = await startTestServer({ rateLimit: { limit: 1, windowSeconds: 60 }, clock: Date.parse('2025-01-01T00:00:00.000Z'), logger: createLogger('warn', { write: (line: string) => void lines.push(line) }) })
    try {
      const key = `limited-${crypto.randomUUID()}`
      const statuses: number[] = []
      for (let i = 0; i < 8; i++) statuses.push((await request(limited.url).get(`/v2/subscribers/${ADA}`).set('Authorization', `ApiKey ${key}`)).status)
      expect(statuses.filter((status) => status === 429).length).toBeGreaterThan(5)
      await expect.poll(() => warnings(key).map((line) => line.status)).toEqual([429])
      const fine = `fine-${crypto.randomUUID()}`
      for (let i = 0; i < 8; i++) await get(fine)
      expect(warnings(fine)).toEqual([])
    } finally {
      await limited.close()
    }
  })

  it('is said while the official SDK retries with its own backoff', { timeout: 30_000 }, async () => {
    const key = `sdk-${crypto.randomUUID()}`
    await unavailable(key)
    // The SDK's default backoff, shortened: the same retries, in a second rather than an hour.
    const novu = new Novu({ serverURL: server.url, secretKey: key, retryConfig: { strategy: 'backoff', backoff: { initialInterval: 10, maxInterval: 50, exponent: 1.5, maxElapsedTime: 1_500 }, retryConnectionErrors: false } })
    await expect(novu.subscribers.retrieve(ADA)).rejects.toMatchObject({ statusCode: 503 })
    await expect.poll(() => warnings(key).length).toBe(1)
  })
})
