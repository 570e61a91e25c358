import request from 'supertest'
import { afterEach, describe, expect, it } from 'vitest'
import type { MockServer } from '../../src/app/create-mock-server.ts'
import { createLogger } from '../../src/log/logger.ts'
import { expectContract } from '../helpers/expect-contract.ts'
import { heldCall } from '../helpers/held-call.ts'
import { freshTenant, startTestServer } from '../helpers/start-test-server.ts'

type Auth = ReturnType<typeof freshTenant>
const RETRY_LATER = 'Please wait some time, then try again.'

let server: MockServer | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
})

const keyOf = (auth: Auth) => auth.Authorization.slice('ApiKey '.length)
const read = (url: string, auth: Auth) => request(url).get('/v2/subscribers/demo-subscriber-1').set(auth)
const write = (url: string, auth: Auth, token: string) =>
  request(url).patch('/v1/subscribers/demo-subscriber-1/credentials').set(auth).send({ providerId: 'fcm', credentials: { deviceTokens: [token] } })
const tokensOf = (res: request.Response): string[] => res.body.channels.find((c: { providerId: string }) => c.providerId === 'fcm').credentials.deviceTokens

async function tenantList(url: string) {
  const res = await request(url).get('/__admin/tenants')
  expect(res.status).toBe(200)
  await expectContract('listTenants', res, 'admin')
  return res.body as { tenants: { apiKey: string; calls: number }[]; released: number }
}

describe('the tenant bound in memory (maxTenants: 2)', () => {
  it('releases the least recently used tenant, written or not: its key starts again from the seed', async () => {
    server = await startTestServer({ maxTenants: 2 })
    const { url } = server
    const [a, b, c] = [freshTenant(), freshTenant(), freshTenant()]
    expect((await write(url, a, 'a-token')).status).toBe(200)
    expect((await request(url).post('/__admin/faults').set(a).send({ preset: 'flaky', match: { operationId: 'markMessagesAs' } })).status).toBe(201)
    expect((await write(url, b, 'b-token')).status).toBe(200)
    expect((await tenantList(url)).released).toBe(0)

    // c releases a (least recently used), though it wrote; in memory its journal and fault rules go too.
    expect((await read(url, c)).status).toBe(200)
    const listed = await tenantList(url)
    expect(listed.released).toBe(1)
    expect(listed.tenants.map((t) => t.apiKey)).toEqual([keyOf(c), keyOf(b)])
    expect((await request(url).get('/__admin/faults').set(a)).body.faults).toEqual([])
    expect((await request(url).get('/__admin/requests').set(a)).body.requests).toEqual([])

    // a comes back as a new tenant, from the seed; b is released for it, b's writes still there until then.
    const again = await read(url, a)
    expect(again.status).toBe(200)
    expect(tokensOf(again)).toEqual(['fcm-token-ada-1'])
    expect((await tenantList(url)).released).toBe(2)
  })

  it('lets keys that each write once through, far past the bound, never refusing one', async () => {
    server = await startTestServer({ maxTenants: 5 })
    for (let i = 0; i < 40; i++) expect((await write(server.url, freshTenant(), `t-${i}`)).status).toBe(200)
    const listed = await tenantList(server.url)
    expect(listed.tenants).toHaveLength(5)
    expect(listed.released).toBe(35)
  })

  it('answers 503 only while every held tenant has a call in flight, and serves the new key once one ends', async () => {
    server = await startTestServer({ maxTenants: 2 })
    const { url } = server
    const [a, b, c] = [freshTenant(), freshTenant(), freshTenant()]
    const [heldA, heldB] = [heldCall(url, a), heldCall(url, b)]
    // Both calls have opened their tenants once both are listed.
    await expect.poll(async () => (await tenantList(url)).tenants.length, { timeout: 30_000 }).toBe(2)

    const refused = await read(url, c)
    expect(refused.status).toBe(503)
    expect(refused.headers['retry-after']).toBeDefined()
    expect(refused.body).toBe(RETRY_LATER)
    await expectContract('getSubscriber', refused)

    expect(await heldA.finish()).toBe(200)
    expect((await read(url, c)).status).toBe(200)
    // b's call, still in flight, kept b held: a was released.
    expect((await tenantList(url)).tenants.map((t) => t.apiKey).sort()).toEqual([keyOf(b), keyOf(c)].sort())
    expect(await heldB.finish()).toBe(200)
    expect(tokensOf(await read(url, b))).toEqual(['fcm-token-ada-1', 'held-token'])
  })

  it('says so in the log at info, naming the tenant by its hash, never its key', async () => {
    const lines: string[] = []
    server = await startTestServer({ maxTenants: 1, logger: createLogger('info', { write: (line: string) => lines.push(line) }) })
    const [a, b] = [freshTenant(), freshTenant()]
    await write(server.url, a, 'a').expect(200)
    await write(server.url, b, 'b').expect(200)
    const released = lines.map((line) => JSON.parse(line) as { level: number; msg: string; tenant?: string }).filter((line) => line.msg === 'tenant released from memory')
    expect(released).toHaveLength(1)
    expect(released[0]!.level).toBe(30) // pino's info
    expect(released[0]!.tenant).toMatch(/^[0-9a-f]{8}$/)
    expect(lines.join('\n')).not.toContain(keyOf(a))
  })

  it('releases a tenant for an admin change to a new one, rather than refusing it', async () => {
    server = await startTestServer({ maxTenants: 2 })
    const { url } = server
    await write(url, freshTenant(), 'one').expect(200)
    await write(url, freshTenant(), 'two').expect(200)
    const res = await request(url).post('/__admin/snapshots').set(freshTenant()).send({ name: 'first' })
    expect(res.status).toBe(201)
    expect((await tenantList(url)).released).toBe(1)
  })
})
