import request from 'supertest'
import { afterEach, describe, expect, it } from 'vitest'
import type { AppOptions } from '../../src/app/config.ts'
import type { MockServer } from '../../src/app/create-mock-server.ts'
import { expectContract } from '../helpers/expect-contract.ts'
import { heldCall } from '../helpers/held-call.ts'
import { startTestServer } from '../helpers/start-test-server.ts'

// Issue 53, rows 4 and 7, and docs/behaviour.md §3: what an instance holds for its tenants is
// bounded in bytes (--memory-budget). A small budget keeps these tests light.
const MIB = 2 ** 20
const BUDGET = 8 * MIB

const servers: MockServer[] = []
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()))
})
async function start(options: AppOptions = {}): Promise<string> {
  const server = await startTestServer({ memoryBudget: BUDGET, ...options })
  servers.push(server)
  return server.url
}

const as = (key: string) => ({ Authorization: `ApiKey ${key}` })
type Memory = { budget: number; used: number }

async function tenants(url: string) {
  const answer = await request(url).get('/__admin/tenants')
  expect(answer.status).toBe(200)
  await expectContract('listTenants', answer, 'admin')
  return answer.body as { tenants: { apiKey: string }[]; released: number; memory: Memory }
}

/** The seeded state with a `data` blob of `chars` characters on its first subscriber: about twice that held. */
async function stateWithBlob(url: string, chars: number, mark = 'x') {
  const state = (await request(url).get('/__admin/state').set(as('reader'))).body
  state.subscribers[0].data = { blob: mark + '.'.repeat(chars - mark.length) }
  return state
}

const putState = (url: string, key: string, state: unknown) => request(url).put('/__admin/state').set(as(key)).send(state as object)
const blobOf = async (url: string, key: string) => (await request(url).get('/__admin/state').set(as(key))).body.subscribers[0].data?.blob as string | undefined

describe('GET /__admin/tenants carries the memory budget and what is held', () => {
  it('answers memory.budget as --memory-budget and memory.used growing with what a tenant holds', async () => {
    const url = await start()
    const before = (await tenants(url)).memory
    expect(before).toEqual({ budget: BUDGET, used: 0 })
    expect((await putState(url, 'holder', await stateWithBlob(url, 500_000))).status).toBe(200)
    const after = (await tenants(url)).memory
    expect(after.used).toBeGreaterThan(1_000_000)
    expect(after.used).toBeLessThanOrEqual(BUDGET)
  })
})

describe('imports past the budget (row 7)', () => {
  it('answers 413 for one state larger than the whole budget, before anything is made, and changes nothing', async () => {
    const url = await start()
    const answer = await putState(url, 'huge', await stateWithBlob(url, 5 * MIB))
    expect(answer.status).toBe(413)
    await expectContract('putState', answer, 'admin')
    expect(answer.body.message).toMatch(new RegExp(`larger than the memory budget \\(${BUDGET} bytes\\)$`))
    expect(await blobOf(url, 'huge')).toBeUndefined()
    expect((await tenants(url)).memory.used).toBe(0)
  })

  it('releases the least recently used tenants to make room, and keeps what is held within the budget', async () => {
    const url = await start()
    for (const key of ['k1', 'k2', 'k3', 'k4', 'k5']) {
      expect((await putState(url, key, await stateWithBlob(url, 1_200_000, key))).status).toBe(200)
      expect((await tenants(url)).memory.used).toBeLessThanOrEqual(BUDGET)
    }
    const { tenants: held, released } = await tenants(url)
    expect(released).toBeGreaterThan(0)
    // The last one is held with its blob; the first was released (in memory: back to the seed).
    expect(held.map((t) => t.apiKey)).toContain('k5')
    expect(held.map((t) => t.apiKey)).not.toContain('k1')
    expect(await blobOf(url, 'k5')).toHaveLength(1_200_000)
    expect(await blobOf(url, 'k1')).toBeUndefined()
  })

  it('answers 503 with Retry-After when every other tenant has a call in flight, changing nothing; once it ends, the same import is taken', async () => {
    const url = await start()
    expect((await putState(url, 'busy', await stateWithBlob(url, 2_500_000))).status).toBe(200)
    const call = heldCall(url, as('busy'))
    // The held call has opened its tenant once the list shows a call of it.
    await expect.poll(async () => (await request(url).get('/__admin/tenants')).body.tenants.find((t: { apiKey: string }) => t.apiKey === 'busy')?.calls).toBe(1)
    const state = await stateWithBlob(url, 2_500_000, 'y')
    const refused = await putState(url, 'newcomer', state)
    expect(refused.status).toBe(503)
    expect(refused.headers['retry-after']).toBe('1')
    await expectContract('putState', refused, 'admin')
    expect(await blobOf(url, 'newcomer')).toBeUndefined()
    expect(await blobOf(url, 'busy')).toHaveLength(2_500_000)
    expect(await call.finish()).toBe(200)
    expect((await putState(url, 'newcomer', state)).status).toBe(200)
    expect(await blobOf(url, 'newcomer')).toHaveLength(2_500_000)
  })

  it('counts snapshots that no longer share the records: a tenant cannot hold many states past the budget', async () => {
    const url = await start()
    const statuses: number[] = []
    for (const name of ['s1', 's2', 's3', 's4']) {
      statuses.push((await putState(url, 'saver', await stateWithBlob(url, 1_100_000, name))).status)
      statuses.push((await request(url).post('/__admin/snapshots').set(as('saver')).send({ name })).status)
    }
    // Each state is about 2.2 MB held; the fourth import would hold four of them: past 8 MiB, and no other tenant to release.
    expect(statuses).toEqual([200, 201, 200, 201, 200, 201, 503, 201])
    expect((await tenants(url)).memory.used).toBeLessThanOrEqual(BUDGET)
  })
})

describe('created tenants past the budget (row 4)', () => {
  it('answers 413 for a creation whose counts alone pass the budget, decided before anything is made', async () => {
    const url = await start()
    const answer = await request(url).post('/__admin/tenants').set(as('creator')).send({ apiKey: 'big1', subscribers: 100_000, channelConnections: 100_000, messages: 100_000 })
    expect(answer.status).toBe(413)
    await expectContract('createTenant', answer, 'admin')
    expect(answer.body.message).toMatch(new RegExp(`larger than the memory budget \\(${BUDGET} bytes\\)$`))
    expect((await tenants(url)).tenants.map((t) => t.apiKey)).not.toContain('big1')
  })

  it('releases older created tenants to make room for new ones, each coming back from its own seed', async () => {
    const url = await start()
    // About 3 MB each: a few fit in 8 MiB, then each new one releases the least recently used.
    for (const key of ['c1', 'c2', 'c3', 'c4']) {
      const answer = await request(url).post('/__admin/tenants').set(as('creator')).send({ apiKey: key, subscribers: 500, channelConnections: 1000, messages: 500 })
      expect(answer.status).toBe(201)
      expect((await tenants(url)).memory.used).toBeLessThanOrEqual(BUDGET)
    }
    const listed = await tenants(url)
    expect(listed.released).toBeGreaterThan(0)
    expect(listed.tenants.map((t) => t.apiKey)).not.toContain('c1')
    const again = await request(url).get('/__admin/state').set(as('c1'))
    expect(again.body.subscribers).toHaveLength(500)
  })
})

describe('fault rules are bounded in bytes (row 7)', () => {
  it('refuses a rule past 1 MiB of a tenant’s rules with a 422, keeping the ones before', async () => {
    const url = await start()
    const rule = (n: number) => ({ match: { operationId: 'upsertSubscriberCredentials', bodyMatches: { blob: String(n).repeat(300_000) } }, latencyMs: 1 })
    const statuses: number[] = []
    for (const n of [1, 2, 3, 4]) {
      const answer = await request(url).post('/__admin/faults').set(as('faulty')).send(rule(n))
      statuses.push(answer.status)
      await expectContract('addFault', answer, 'admin')
    }
    expect(statuses).toEqual([201, 201, 201, 422])
    expect((await request(url).get('/__admin/faults').set(as('faulty'))).body.faults).toHaveLength(3)
  })
})

describe('idempotency records are part of their tenant (docs/behaviour.md §3, §4)', () => {
  it('counts a tenant’s idempotency records with it, and releases them with it to make room', { timeout: 60_000 }, async () => {
    const budget = 2.5 * MIB
    const url = await start({ memoryBudget: budget })
    // 404s of an unknown subscriber change no record: each tenant holds its idempotency records alone, about 1 KB each.
    const messageId = Array.from({ length: 17 }, (_, i) => `507f1f77bcf86cd7994390${String(i).padStart(2, '0')}`)
    const keyOf = (n: number) => `${'k'.repeat(250)}${String(n).padStart(5, '0')}`
    const markAs = (tenant: string, n: number) =>
      request(url).post('/v1/subscribers/nobody/messages/mark-as').set(as(tenant)).set('idempotency-key', keyOf(n)).send({ messageId, markAs: 'read' })
    for (const tenant of ['keyed-1', 'keyed-2']) {
      for (let batch = 0; batch < 20; batch++) {
        const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => markAs(tenant, batch * 50 + i)))
        expect(answers.map(({ status }) => status)).toEqual(answers.map(() => 404))
      }
    }
    expect((await tenants(url)).memory.used).toBeGreaterThan(1.5 * MIB)
    expect((await markAs('keyed-2', 0)).headers['idempotency-replay']).toBe('true')
    // Room for another tenant's state is made by releasing the least recently used keyed tenant, records and all.
    expect((await putState(url, 'writer', await stateWithBlob(url, 500_000))).status).toBe(200)
    const { tenants: held, memory } = await tenants(url)
    expect(held.map((t) => t.apiKey)).not.toContain('keyed-1')
    expect(memory.used).toBeLessThanOrEqual(budget)
    const again = await markAs('keyed-1', 0)
    expect([again.status, again.headers['idempotency-replay']]).toEqual([404, undefined])
  })
})
