import { Redis } from 'ioredis'
import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startCli } from '../helpers/cli.ts'
import { expectContract } from '../helpers/expect-contract.ts'
import { eventually } from '../helpers/redis-cluster.ts'
import { redisTestsSkipped, startRedis, type RedisServer } from '../helpers/redis-server.ts'
import { freshTenant } from '../helpers/start-test-server.ts'
import { ADA_CREDENTIALS, appendToken, fcmTokens } from './helpers.ts'
import { ADA } from '../helpers/well-known.ts'

/**
 * Instances of the built CLI losing their Redis (docs/behaviour.md §7): health says so, every call
 * answers 503 with Retry-After rather than serve stale state or drop a write, and both recover by
 * themselves once the test's own redis-server is back.
 */
type Instance = Awaited<ReturnType<typeof startCli>>

// Said once, by vitest.config.ts.
const skipped = redisTestsSkipped()

let redis: RedisServer
const instances: Instance[] = []

beforeAll(async () => {
  if (skipped) return
  redis = await startRedis({ durable: true })
  instances.push(...(await Promise.all([0, 1].map(() => startCli(['--port', '0', '--log-level', 'silent', '--redis', redis.url])))))
})
afterAll(async () => {
  await Promise.all(instances.map((served) => served.stop()))
  await redis?.stop()
})

const health = (url: string) => request(url).get('/__admin/health')

/** The first health answer that is a 200, asked again every 100 ms. */
async function healthy(url: string): Promise<request.Response> {
  for (;;) {
    const answer = await health(url)
    if (answer.status === 200) return answer
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

describe.skipIf(skipped)('instances that lose their Redis', () => {
  it('answer 503 while it is unreachable and serve every acknowledged write once it is back', { timeout: 60_000 }, async () => {
    const auth = freshTenant()
    const [a, b] = instances.map((served) => served.url) as [string, string]
    for (const url of [a, b]) {
      const ok = await health(url)
      expect([ok.status, ok.body.status, ok.body.store]).toEqual([200, 'ok', 'redis'])
      await expectContract('getHealth', ok, 'admin')
    }
    expect((await appendToken(a, auth, 'before-outage')).status).toBe(200)

    await redis.halt()
    for (const url of [a, b]) {
      const down = await health(url)
      expect([down.status, down.headers['retry-after'], down.body.status, down.body.store]).toEqual([503, '1', 'unavailable', 'redis'])
      await expectContract('getHealth', down, 'admin')
      const read = await request(url).get(`/v2/subscribers/${ADA}`).set(auth)
      expect([read.status, read.headers['retry-after']]).toEqual([503, '1'])
      await expectContract('getSubscriber', read)
      const write = await appendToken(url, auth, 'during-outage')
      expect([write.status, write.headers['retry-after']]).toEqual([503, '1'])
      const keyed = await request(url).patch(ADA_CREDENTIALS).set(auth).set('idempotency-key', `outage-${url}`).send({ providerId: 'fcm', credentials: { deviceTokens: ['keyed-during-outage'] } })
      expect(keyed.status).toBe(503)
    }

    await redis.restart()
    for (const url of [a, b]) expect((await healthy(url)).body.status).toBe('ok')
    for (const url of [a, b]) {
      const tokens = await fcmTokens(url, auth)
      expect(tokens).toContain('before-outage')
      expect(tokens).not.toContain('during-outage')
      expect(tokens).not.toContain('keyed-during-outage')
    }
    expect((await appendToken(b, auth, 'after-outage')).status).toBe(200)
    expect(await fcmTokens(a, auth)).toContain('after-outage')
  })

  it('acknowledge a write on a single Redis with a replica once the replica has it, and refuse it with 503 while the replica is stopped', { timeout: 60_000 }, async () => {
    const master = await startRedis()
    const replica = await startRedis({ replicaOf: master.url })
    const served = await startCli(['--port', '0', '--log-level', 'silent', '--redis', master.url])
    const auth = freshTenant()
    try {
      // Until the replica has made its first copy, a write waits for no replica.
      const peek = new Redis(replica.url)
      await eventually(async () => /master_link_status:up/.test(await peek.info('replication')), 30_000, 'the replica did not sync').finally(() => peek.disconnect())
      expect((await appendToken(served.url, auth, 'replicated')).status).toBe(200)
      replica.signal('SIGSTOP')
      const refused = await appendToken(served.url, auth, 'unconfirmed')
      expect([refused.status, refused.headers['retry-after']]).toEqual([503, '1'])
      await expectContract('upsertSubscriberCredentials', refused)
      replica.signal('SIGCONT')
      await eventually(async () => (await appendToken(served.url, auth, 'confirmed-again')).status === 200, 30_000, 'writes were not acknowledged again')
    } finally {
      replica.signal('SIGCONT')
      await served.stop()
      await Promise.all([replica.stop(), master.stop()])
    }
  })
})
