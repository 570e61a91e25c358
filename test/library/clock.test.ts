import { startMockServer, type MockServer, type Tenant } from 'novu-mock'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { expectContract } from '../helpers/expect-contract.ts'

const T0 = '2025-03-01T12:00:00.000Z'
const START = '2024-12-24T18:00:00.000Z'

let mock: MockServer
beforeAll(async () => {
  mock = await startMockServer({ clock: START })
})
afterAll(() => mock.close())

function fresh(): { tenant: Tenant; auth: { Authorization: string } } {
  const apiKey = `library-${crypto.randomUUID()}`
  return { tenant: mock.tenant(apiKey), auth: { Authorization: `ApiKey ${apiKey}` } }
}

const upsertSlack = (auth: { Authorization: string }) =>
  fetch(`${mock.url}/v1/subscribers/demo-subscriber-1/credentials`, {
    method: 'PATCH',
    headers: { ...auth, 'Content-Type': 'application/json' },
    body: JSON.stringify({ providerId: 'slack', credentials: { webhookUrl: 'https://hooks.example.com/a' } }),
  })

describe('tenant.clock', () => {
  it('starts at the clock option, frozen', async () => {
    const { tenant } = fresh()
    const clock = await tenant.clock.get()
    await expectContract('getClock', { status: 200, body: clock }, 'admin')
    expect(clock).toEqual({ now: START, frozen: true })
  })

  it('sets (a string or a Date), advances and goes back to real time, and the calls over HTTP follow it', async () => {
    const { tenant, auth } = fresh()
    expect(await tenant.clock.set(new Date(T0))).toEqual({ now: T0, frozen: true })
    expect(await tenant.clock.advance(1500)).toEqual({ now: '2025-03-01T12:00:01.500Z', frozen: true })
    const res = await upsertSlack(auth)
    expect(res.status).toBe(200)
    expect(((await res.json()) as { updatedAt: string }).updatedAt).toBe('2025-03-01T12:00:01.500Z')
    expect((await tenant.clock.set(T0, { frozen: false })).frozen).toBe(false)
    const real = await tenant.clock.useRealTime()
    expect(real.frozen).toBe(false)
    expect(Math.abs(Date.parse(real.now) - Date.now())).toBeLessThan(60 * 60 * 1000)
  })

  it('rejects a bad value naming the method, and changes nothing', async () => {
    const { tenant } = fresh()
    await expect(tenant.clock.set('not a date')).rejects.toThrow(/^clock: 422/)
    await expect(tenant.clock.advance(-1)).rejects.toThrow(/^clock: 422/)
    await expect(tenant.clock.advance(0.5)).rejects.toThrow(/^clock: 422/)
    expect(await tenant.clock.get()).toEqual({ now: START, frozen: true })
  })

  it('reset puts the tenant back on the starting clock', async () => {
    const { tenant } = fresh()
    await tenant.clock.set(T0)
    await tenant.reset()
    expect(await tenant.clock.get()).toEqual({ now: START, frozen: true })
  })

  it('refuses a clock option that is not an ISO 8601 instant', async () => {
    await expect(startMockServer({ clock: 'tomorrow' })).rejects.toThrow('startMockServer: option "clock" must be an ISO 8601 instant')
  })
})
