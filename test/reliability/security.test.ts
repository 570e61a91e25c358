import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createLogger } from '../../src/log/logger.ts'
import type { MockServer } from '../../src/app/create-mock-server.ts'
import { readState } from '../helpers/read-state.ts'
import { freshTenant, startTestServer } from '../helpers/start-test-server.ts'
import { ADA, adaMessage } from '../helpers/well-known.ts'

const lines: string[] = []
let server: MockServer
beforeAll(async () => {
  server = await startTestServer({ logger: createLogger('debug', { write: (line: string) => void lines.push(line) }), responseValidation: 'strict' })
})
afterAll(() => server.close())

const polluted = () => ({} as Record<string, unknown>).polluted !== undefined || ({} as Record<string, unknown>).isAdmin !== undefined

describe('security', () => {
  it('cannot be polluted through a body, a query or an admin state import', async () => {
    const auth = freshTenant()
    const payload = '{"__proto__":{"polluted":true},"constructor":{"prototype":{"isAdmin":true}},"providerId":"fcm","credentials":{"__proto__":{"polluted":true},"deviceTokens":["x"]}}'
    const patched = await request(server.url).patch(`/v1/subscribers/${ADA}/credentials`).set(auth).set('Content-Type', 'application/json').send(payload)
    expect(patched.status).toBe(200)
    await request(server.url).get('/v1/channel-connections?__proto__[polluted]=1&constructor[prototype][isAdmin]=1&__proto__=x').set(auth)
    const state = await readState(server.url, auth)
    const imported = JSON.stringify(state).replace('{"subscribers":[', '{"__proto__":{"polluted":true},"subscribers":[')
    const put = await request(server.url).put('/__admin/state').set(auth).set('Content-Type', 'application/json').send(imported)
    expect(put.status).toBe(422) // the state document is closed: unknown keys are refused
    expect(polluted()).toBe(false)
  })

  it('never writes the Authorization value or an idempotency key to the log', async () => {
    const key = `secret-${crypto.randomUUID()}`
    const idempotencyKey = `idem-${crypto.randomUUID()}`
    const auth = { Authorization: `ApiKey ${key}` }
    await request(server.url).get(`/v2/subscribers/${ADA}`).set(auth)
    await request(server.url).post(`/v1/subscribers/${ADA}/messages/mark-as`).set({ ...auth, 'idempotency-key': idempotencyKey }).send({ messageId: 'x', markAs: 'read' })
    await request(server.url).post(`/v1/subscribers/${ADA}/messages/mark-as`).set({ ...auth, 'idempotency-key': idempotencyKey }).send({ messageId: 'y', markAs: 'read' })
    await request(server.url).get('/v1/channel-connections').set({ Authorization: `Bearer ${key}` })
    const log = lines.join('')
    expect(lines.length).toBeGreaterThan(3)
    expect(log).not.toContain(key)
    expect(log).not.toContain(idempotencyKey)
  })

  it('keeps each tenant’s data, snapshots, journal and faults from every other tenant', async () => {
    const [a, b] = [freshTenant(), freshTenant()]
    await request(server.url).post(`/v1/subscribers/${ADA}/messages/mark-as`).set(a).send({ messageId: adaMessage(1), markAs: 'read' })
    await request(server.url).post('/__admin/snapshots').set(a).send({ name: 'mine' })
    await request(server.url).post('/__admin/faults').set(a).send({ preset: 'unavailable', match: { operationId: 'getSubscriber' } })
    expect((await readState(server.url, b)).messages.find((m) => m._id === adaMessage(1))!.read).toBe(false)
    expect((await request(server.url).get('/__admin/snapshots').set(b)).body.snapshots).toEqual([])
    expect((await request(server.url).post('/__admin/snapshots/mine/restore').set(b)).status).toBe(404)
    expect((await request(server.url).get('/__admin/requests').set(b)).body.requests).toEqual([])
    expect((await request(server.url).get('/__admin/faults').set(b)).body.faults).toEqual([])
    expect((await request(server.url).get(`/v2/subscribers/${ADA}`).set(b)).status).toBe(200)
    expect((await request(server.url).get(`/v2/subscribers/${ADA}`).set(a)).status).toBe(503)
  })
})
