import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { MockServer } from '../../src/app/create-mock-server.ts'
import { expectContract } from '../helpers/expect-contract.ts'
import { rawRequest } from '../helpers/raw-request.ts'
import { startTestServer } from '../helpers/start-test-server.ts'

const ACCEPTED = 's3cret-accepted'

describe('--api-key guards the control plane too (docs/behaviour.md §3)', () => {
  let mock: MockServer
  beforeAll(async () => {
    mock = await startTestServer({ apiKeys: [ACCEPTED] })
    // The key is held, so the list has it to show.
    await rawRequest(`${mock.url}/v2/subscribers/demo-subscriber-1`, { headers: { Authorization: `ApiKey ${ACCEPTED}` } })
  })
  afterAll(() => mock.close())

  it.each([undefined, 'ApiKey not-accepted', 'Bearer x'])('refuses the tenant list with a 401 to Authorization %s, never showing a key', async (authorization) => {
    const answer = await rawRequest(`${mock.url}/__admin/tenants`, { headers: authorization ? { Authorization: authorization } : {} })
    expect(answer.status).toBe(401)
    await expectContract('listTenants', answer, 'admin')
    expect(answer.text).not.toContain(ACCEPTED)
  })

  it('lists the tenants to an accepted key', async () => {
    const answer = await rawRequest(`${mock.url}/__admin/tenants`, { headers: { Authorization: `ApiKey ${ACCEPTED}` } })
    expect(answer.status).toBe(200)
    await expectContract('listTenants', answer, 'admin')
    expect((answer.body as { tenants: { apiKey: string }[] }).tenants.map((tenant) => tenant.apiKey)).toContain(ACCEPTED)
  })

  it('refuses every other admin route without an accepted key', async () => {
    for (const [method, path] of [['GET', '/__admin/state'], ['POST', '/__admin/reset?all=true'], ['GET', '/__admin/requests'], ['GET', '/__admin/faults'], ['GET', '/__admin/events'], ['POST', '/__admin/tenants']] as const) {
      const answer = await rawRequest(`${mock.url}${path}`, { method, headers: { 'Content-Type': 'application/json' }, body: method === 'POST' ? '{}' : undefined })
      expect(answer.status, `${method} ${path}`).toBe(401)
    }
  })

  it('leaves health and the inspector page open', async () => {
    for (const path of ['/__admin/health', '/__admin/ui', '/__admin/ui/inspector.js', '/__admin/ui/inspector.css']) {
      expect((await rawRequest(`${mock.url}${path}`)).status, path).toBe(200)
    }
  })

  it('lists the tenants to anyone on loopback without --api-key, as before', async () => {
    const open = await startTestServer()
    try {
      expect((await rawRequest(`${open.url}/__admin/tenants`)).status).toBe(200)
    } finally {
      await open.close()
    }
  })
})
