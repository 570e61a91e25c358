import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startCli } from '../helpers/cli.ts'
import { openEvents } from '../helpers/event-stream.ts'
import { expectContract } from '../helpers/expect-contract.ts'
import { redisTestsSkipped, startRedis, type RedisServer } from '../helpers/redis-server.ts'
import { freshTenant, startTestServer } from '../helpers/start-test-server.ts'
import { ADA } from '../helpers/well-known.ts'

/**
 * What every call passes through besides the records, shared by instances of the built CLI on one
 * Redis: the request journal and its live stream, fault rules and their counters, and the
 * tenant's rate limit with its headers.
 */
type Instance = Awaited<ReturnType<typeof startCli>>

// Said once, by vitest.config.ts.
const skipped = redisTestsSkipped()

let redis: RedisServer
let a: Instance
let b: Instance

beforeAll(async () => {
  if (skipped) return
  redis = await startRedis()
  // A limit low enough to reach: 10 a minute, so no token comes back while the test runs.
  ;[a, b] = await Promise.all([0, 1].map(() => startCli(['--port', '0', '--log-level', 'silent', '--redis', redis.url, '--rate-limit', '10/60']))) as [Instance, Instance]
})
afterAll(async () => {
  await Promise.all([a, b].filter(Boolean).map((served) => served.stop()))
  await redis?.stop()
})

const getAda = (url: string, auth: { Authorization: string }) => request(url).get(`/v2/subscribers/${ADA}`).set(auth)

describe.skipIf(skipped)('policies shared over instances on one Redis', () => {
  it('journals the calls of both instances: each lists and verifies them, and streams the other\'s live', async () => {
    const auth = freshTenant()
    const stream = await openEvents(`${a.url}/__admin/events?bodies=false`, auth)
    try {
      expect((await stream.next())?.event).toBe('ready')
      expect((await getAda(b.url, auth)).status).toBe(200)
      const streamed = await stream.next()
      expect([streamed?.event, JSON.parse(streamed?.data ?? '{}').operationId]).toEqual(['request', 'getSubscriber'])
    } finally {
      stream.close()
    }
    expect((await getAda(a.url, auth)).status).toBe(200)
    for (const url of [a.url, b.url]) {
      const listed = await request(url).get('/__admin/requests').set(auth)
      expect(listed.status).toBe(200)
      await expectContract('listRequests', listed, 'admin')
      expect(listed.body.requests.map((entry: { id: number }) => entry.id)).toEqual([1, 2])
      const verified = await request(url).post('/__admin/requests/verify').set(auth).send({ operationId: 'getSubscriber', count: 2 })
      expect([verified.status, verified.body.matched]).toEqual([200, 2])
    }
  })

  it('fires on one instance a fault rule set through the other, and counts its times over both', async () => {
    const auth = freshTenant()
    const added = await request(a.url).post('/__admin/faults').set(auth).send({ match: { operationId: 'getSubscriber' }, respond: { status: 404 }, times: 3 })
    expect(added.status).toBe(201)
    await expectContract('addFault', added, 'admin')
    const answers = []
    for (let i = 0; i < 5; i++) answers.push((await getAda(i % 2 ? a.url : b.url, auth)).status)
    expect(answers).toEqual([404, 404, 404, 200, 200])
    for (const url of [a.url, b.url]) expect((await request(url).get('/__admin/faults').set(auth)).body.faults).toEqual([])
  })

  it('applies an everyNth rule on every second matching call, whichever instance answers', async () => {
    const auth = freshTenant()
    const added = await request(b.url).post('/__admin/faults').set(auth).send({ match: { operationId: 'getSubscriber' }, respond: { status: 404 }, everyNth: 2 })
    expect(added.status).toBe(201)
    const answers = []
    for (let i = 0; i < 6; i++) answers.push((await getAda(i % 2 ? a.url : b.url, auth)).status)
    expect(answers).toEqual([200, 404, 200, 404, 200, 404])
    const [rule] = (await request(a.url).get('/__admin/faults').set(auth)).body.faults
    expect([rule.matched, rule.applied]).toEqual([6, 3])
  })

  it('applies a `times: 3` rule exactly 3 times over concurrent calls on both instances, then neither lists it', async () => {
    const auth = freshTenant()
    const added = await request(a.url).post('/__admin/faults').set(auth).send({ match: { operationId: 'getSubscriber' }, respond: { status: 404 }, times: 3 })
    expect(added.status).toBe(201)
    // Within the limit of 10 a minute: 8 calls at once, half through each.
    const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => getAda(i % 2 ? a.url : b.url, auth)))
    expect(answers.map(({ status }) => status).sort()).toEqual([200, 200, 200, 200, 200, 404, 404, 404])
    for (const url of [a.url, b.url]) expect((await request(url).get('/__admin/faults').set(auth)).body.faults).toEqual([])
  })

  it('numbers a tenant’s rules from fault-1 over both instances, as in memory: rules added at once through both never share an id', async () => {
    const auth = freshTenant()
    const added = await Promise.all(Array.from({ length: 6 }, (_, i) => request(i % 2 ? a.url : b.url).post('/__admin/faults').set(auth).send({ match: { path: `/v${i}` }, latencyMs: 1 })))
    expect(added.map(({ status }) => status)).toEqual(Array(6).fill(201))
    const ids = added.map(({ body }) => body.id as string).sort()
    expect(ids).toEqual(['fault-1', 'fault-2', 'fault-3', 'fault-4', 'fault-5', 'fault-6'])
    for (const url of [a.url, b.url]) expect((await request(url).get('/__admin/faults').set(auth)).body.faults.map((rule: { id: string }) => rule.id).sort()).toEqual(ids)
  })

  it('keeps a tenant’s fault rules and their counters in Redis when an instance releases it: they come back with it', async () => {
    const server = await startTestServer({ redis: redis.url, maxTenants: 1 })
    try {
      const [faulty, other] = [freshTenant(), freshTenant()]
      expect((await request(server.url).post('/__admin/faults').set(faulty).send({ match: { operationId: 'getSubscriber' }, respond: { status: 404 }, times: 2 })).status).toBe(201)
      expect((await getAda(server.url, faulty)).status).toBe(404)
      expect((await getAda(server.url, other)).status).toBe(200)
      expect((await request(server.url).get('/__admin/tenants')).body.released).toBe(1)
      expect((await request(server.url).get('/__admin/faults').set(faulty)).body.faults).toMatchObject([{ matched: 1, applied: 1, times: 1 }])
      expect([(await getAda(server.url, faulty)).status, (await getAda(server.url, faulty)).status]).toEqual([404, 200])
    } finally {
      await server.close()
    }
  })

  it('holds a tenant to its rate limit over both instances, the headers counting every call', async () => {
    const auth = freshTenant()
    const answers = []
    for (let i = 0; i < 13; i++) answers.push(await getAda(i % 2 ? a.url : b.url, auth))
    // The bucket holds the limit and a tenth more (docs/behaviour.md §1.5): 11 calls, then 429s.
    expect(answers.map((answer) => answer.status)).toEqual([...Array(11).fill(200), 429, 429])
    expect(answers.slice(0, 11).map((answer) => Number(answer.headers['ratelimit-remaining']))).toEqual([10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0])
    const refused = answers[11]!
    expect(refused.headers['retry-after']).toBe(refused.headers['ratelimit-reset'])
    await expectContract('getSubscriber', refused)
  })
})
