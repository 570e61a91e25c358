import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { MockServer } from '../../src/app/create-mock-server.ts'
import { redisTestsSkipped, startRedis, type RedisServer } from '../helpers/redis-server.ts'
import { relayTrips, type RedisTrips } from '../helpers/redis-trips.ts'
import { freshTenant, startTestServer } from '../helpers/start-test-server.ts'
import { ADA } from '../helpers/well-known.ts'

/**
 * The round trips a call on --redis makes to Redis, counted by a relay in front of it
 * (redis-trips.ts): a call that writes nothing waits for one, in which the tenant's clock, its
 * sync and its rate-limit token travel together; its journal entry is sent once it is answered.
 */

// Said once, by vitest.config.ts.
const skipped = redisTestsSkipped()

let redis: RedisServer
let relay: RedisTrips
let quiet: MockServer
let journaled: MockServer

beforeAll(async () => {
  if (skipped) return
  redis = await startRedis()
  relay = await relayTrips(redis.url)
  // Without a journal, a call's trips are all it waits for.
  ;[quiet, journaled] = await Promise.all([
    startTestServer({ redis: relay.url, journalSize: 0 }),
    startTestServer({ redis: relay.url, rateLimit: { limit: 1, windowSeconds: 60 } }),
  ])
})
afterAll(async () => {
  await Promise.all([quiet, journaled].map((server) => server?.close()))
  await relay?.close()
  await redis?.stop()
})

/** The trips a call makes, its tenant already held by the server. */
const tripsOf = async (call: () => Promise<{ status: number }>, status = 200) => {
  await relay.clear()
  expect((await call()).status).toBe(status)
  return relay.trips()
}

/** The socket writes to Redis of a call: a trip's commands leave in one. */
const writesOf = async (call: () => Promise<{ status: number }>) => {
  await relay.clear()
  expect((await call()).status).toBe(200)
  return relay.writes()
}

const getAda = (server: MockServer, auth: { Authorization: string }) => () => request(server.url).get(`/v2/subscribers/${ADA}`).set(auth)
const patchAda = (server: MockServer, auth: { Authorization: string }) => () =>
  request(server.url).patch(`/v1/subscribers/${ADA}/credentials`).set(auth).send({ providerId: 'fcm', credentials: { deviceTokens: ['token'] } })

describe.skipIf(skipped)('round trips to Redis of a call', () => {
  it('costs a read one trip: the tenant’s sync and its token sent together, each reading its clock from its value', async () => {
    const auth = freshTenant()
    await getAda(quiet, auth)()
    for (let i = 0; i < 3; i++) expect(await tripsOf(getAda(quiet, auth))).toEqual([['EVALSHA', 'EVALSHA']])
    // A page of connections too.
    expect(await tripsOf(() => request(quiet.url).get('/v1/channel-connections?limit=10').set(auth))).toHaveLength(1)
    // Its two commands in one write to the socket.
    expect(await writesOf(getAda(quiet, auth))).toBe(1)
  })

  it('writes the commands of calls at once in fewer writes than commands: those of one turn leave together', async () => {
    const auth = freshTenant()
    await getAda(quiet, auth)()
    await relay.clear()
    const calls = 10
    const answers = await Promise.all(Array.from({ length: calls }, () => getAda(quiet, auth)()))
    expect(answers.map(({ status }) => status)).toEqual(Array(calls).fill(200))
    // Each command was written on its own before: as many writes as commands.
    expect(relay.writes()).toBeLessThan(relay.trips().flat().length)
  })

  it('costs a write two: the same first trip, then its change', async () => {
    const auth = freshTenant()
    await patchAda(quiet, auth)()
    const trips = await tripsOf(patchAda(quiet, auth))
    expect(trips).toHaveLength(2)
    expect(trips[0]).toEqual(['EVALSHA', 'EVALSHA'])
    // A write per trip.
    expect(await writesOf(patchAda(quiet, auth))).toBe(2)
  })

  it('sends a call’s journal entry after its one trip, stamped with the tenant’s clock, and answers a call past the limit 429 from that trip', async () => {
    const auth = freshTenant()
    const frozenAt = '2031-05-06T07:08:09.000Z'
    expect((await request(journaled.url).put('/__admin/clock').set(auth).send({ now: frozenAt })).status).toBe(200)
    // A burst of 2 (a limit of 1): the third call is refused, its clock frozen refilling nothing.
    await getAda(journaled, auth)()
    const trips = await tripsOf(getAda(journaled, auth))
    // The journal's script: one command, sent once the first trip's answers are in.
    expect(trips).toEqual([['EVALSHA', 'EVALSHA'], ['EVALSHA']])
    expect(relay.writes()).toBe(2)
    const refused = await tripsOf(getAda(journaled, auth), 429)
    expect(refused[0]).toEqual(['EVALSHA', 'EVALSHA'])
    const listed = await request(journaled.url).get('/__admin/requests').set(auth)
    expect(listed.body.requests.map((entry: { status: number; time: string }) => [entry.status, entry.time])).toEqual([
      [200, frozenAt],
      [200, frozenAt],
      [429, frozenAt],
    ])
  })

  it('costs a call matching none of its tenant’s fault rules the same one trip, and one matching a rule one more: its count, a change of the tenant', async () => {
    const auth = freshTenant()
    const added = await request(quiet.url).post('/__admin/faults').set(auth).send({ match: { operationId: 'listChannelConnections' }, respond: { status: 503 } })
    expect(added.status).toBe(201)
    await getAda(quiet, auth)()
    for (let i = 0; i < 3; i++) expect(await tripsOf(getAda(quiet, auth))).toEqual([['EVALSHA', 'EVALSHA']])
    const faulted = await tripsOf(() => request(quiet.url).get('/v1/channel-connections?limit=10').set(auth), 503)
    expect(faulted).toHaveLength(2)
    expect(faulted[0]).toEqual(['EVALSHA', 'EVALSHA'])
    const [rule] = (await request(quiet.url).get('/__admin/faults').set(auth)).body.faults
    expect([rule.matched, rule.applied]).toEqual([1, 1])
  })
})
