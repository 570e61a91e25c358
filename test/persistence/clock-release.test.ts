import request from 'supertest'
import { afterEach, describe, expect, it } from 'vitest'
import type { AppOptions } from '../../src/app/config.ts'
import type { MockServer } from '../../src/app/create-mock-server.ts'
import { expectContract } from '../helpers/expect-contract.ts'
import { redisTestsSkipped, startRedis, type RedisServer } from '../helpers/redis-server.ts'
import { freshTenant, startTestServer } from '../helpers/start-test-server.ts'
import { appendToken, dbFile, type Auth } from './helpers.ts'

/** A tenant's clock goes with its value (docs/behaviour.md §8): what a release, and a reset of all, do to it in each store. */

const T0 = '2025-03-01T12:00:00.000Z'

const servers: MockServer[] = []
const redises: RedisServer[] = []
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()))
  await Promise.all(redises.splice(0).map((redis) => redis.stop()))
})
async function start(options: AppOptions) {
  const server = await startTestServer(options)
  servers.push(server)
  return server.url
}

const clockOf = async (url: string, auth: Auth) => {
  const res = await request(url).get('/__admin/clock').set(auth)
  await expectContract('getClock', res, 'admin')
  return res.body as { now: string; frozen: boolean }
}
const released = async (url: string) => (await request(url).get('/__admin/tenants')).body.released as number

/** The tenant's clock set and the tenant held by a write, then released at the bound of one tenant by a newcomer's call. */
async function setThenReleased(url: string): Promise<Auth> {
  const auth = freshTenant()
  expect((await request(url).put('/__admin/clock').set(auth).send({ now: T0 })).status).toBe(200)
  expect((await appendToken(url, auth, 'mine')).status).toBe(200)
  expect((await appendToken(url, freshTenant(), 'other')).status).toBe(200)
  expect(await released(url)).toBeGreaterThan(0)
  return auth
}

describe('a released tenant’s clock (maxTenants: 1)', () => {
  it('goes with the tenant in memory', async () => {
    const url = await start({ maxTenants: 1 })
    const auth = await setThenReleased(url)
    const clock = await clockOf(url, auth)
    expect(clock.frozen).toBe(false)
    expect(Math.abs(Date.parse(clock.now) - Date.now())).toBeLessThan(60_000)
  })

  it('comes back with the tenant from the --db file, and stamps its next write', async () => {
    const url = await start({ db: dbFile(), maxTenants: 1 })
    const auth = await setThenReleased(url)
    expect(await clockOf(url, auth)).toEqual({ now: T0, frozen: true })
    const written = await appendToken(url, auth, 'back')
    expect(written.status).toBe(200)
    expect(written.body.updatedAt).toBe(T0)
  })

  it.skipIf(redisTestsSkipped())('comes back with the tenant from Redis, and a reset of all puts a created tenant back on real time on every instance', { timeout: 60_000 }, async () => {
    const redis = await startRedis()
    redises.push(redis)
    const [a, b] = await Promise.all([start({ redis: redis.url, maxTenants: 1 }), start({ redis: redis.url })])
    const auth = await setThenReleased(a)
    expect(await clockOf(a, auth)).toEqual({ now: T0, frozen: true })
    expect((await appendToken(a, auth, 'back')).body.updatedAt).toBe(T0)

    const created = { Authorization: 'ApiKey created-with-a-clock' }
    expect((await request(b).post('/__admin/tenants').set(auth).send({ apiKey: 'created-with-a-clock', subscribers: 2 })).status).toBe(201)
    expect((await request(a).put('/__admin/clock').set(created).send({ now: T0 })).status).toBe(200)
    expect(await clockOf(b, created)).toEqual({ now: T0, frozen: true })
    expect((await request(b).post('/__admin/reset?all=true').set(created)).status).toBe(200)
    for (const url of [a, b]) expect((await clockOf(url, created)).frozen).toBe(false)
  })
})
