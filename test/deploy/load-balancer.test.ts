import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startCli } from '../helpers/cli.ts'
import { openEvents } from '../helpers/event-stream.ts'
import { expectContract } from '../helpers/expect-contract.ts'
import { nginxTestsSkipped, startNginx, type Nginx } from '../helpers/nginx.ts'
import { readState } from '../helpers/read-state.ts'
import { redisTestsSkipped, startRedis, type RedisServer } from '../helpers/redis-server.ts'
import { freshTenant } from '../helpers/start-test-server.ts'
import { ADA, adaMessage, INTEGRATIONS } from '../helpers/well-known.ts'

/**
 * Debian's nginx with the repository's deploy/nginx.conf in front of two instances of the built
 * CLI on one Redis, all started here: through it, the instances are one mock (README, "Running
 * several instances"). The test's own nginx config adds which instance answered each call as a
 * header, so that each test can show its calls went to both.
 */
type Instance = Awaited<ReturnType<typeof startCli>>
type Auth = ReturnType<typeof freshTenant>
type Answer = Awaited<ReturnType<typeof getSubscriber>>

// Said once each, by vitest.config.ts.
const skipped = redisTestsSkipped() !== undefined || nginxTestsSkipped() !== undefined

const UPSTREAM_HEADER = 'x-test-upstream'
const CREDENTIALS = `/v1/subscribers/${ADA}/credentials`
const MARK_AS = `/v1/subscribers/${ADA}/messages/mark-as`
const M1 = adaMessage(1) // demo-subscriber-1's first message, unread in the seed
const SMS_INTEGRATION = INTEGRATIONS.plivo // not the sms primary in the seed

let redis: RedisServer
let instances: Instance[] = []
let nginx: Nginx

beforeAll(async () => {
  if (skipped) return
  redis = await startRedis()
  instances = await Promise.all([0, 1].map(() => startCli(['--port', '0', '--log-level', 'silent', '--redis', redis.url])))
  nginx = await startNginx(
    instances.map((instance) => new URL(instance.url).host),
    { http: [`add_header ${UPSTREAM_HEADER} $upstream_addr always;`] },
  )
})
afterAll(async () => {
  await nginx?.stop()
  await Promise.all(instances.map((instance) => instance.stop()))
  await redis?.stop()
})

/** The instance (its host:port) that answered a call made through nginx. */
const answeredBy = (answer: { headers: Record<string, string> }) => answer.headers[UPSTREAM_HEADER]
/** Expects `answers` to come from both instances, and from nothing else. */
function expectBothInstances(answers: { headers: Record<string, string> }[]): void {
  expect(new Set(answers.map(answeredBy))).toEqual(new Set(instances.map((instance) => new URL(instance.url).host)))
}

const getSubscriber = (auth: Auth, headers: Record<string, string> = {}) => request(nginx.url).get(`/v2/subscribers/${ADA}`).set({ ...auth, ...headers })
const markAs = (auth: Auth, markAs: string, headers: Record<string, string> = {}) => request(nginx.url).post(MARK_AS).set({ ...auth, ...headers }).send({ messageId: M1, markAs })

describe.skipIf(skipped)('two instances on one Redis behind nginx (deploy/nginx.conf)', () => {
  it('answers the five operations, each by the contract, and the state read back through it shows their changes', async () => {
    const auth = freshTenant()
    const upsert = await request(nginx.url).patch(CREDENTIALS).set(auth).send({ providerId: 'fcm', credentials: { deviceTokens: ['through-nginx'] } })
    expect(upsert.status).toBe(200)
    await expectContract('upsertSubscriberCredentials', upsert)
    const subscriber = await getSubscriber(auth)
    expect(subscriber.status).toBe(200)
    await expectContract('getSubscriber', subscriber)
    const primary = await request(nginx.url).post(`/v1/integrations/${SMS_INTEGRATION}/set-primary`).set(auth)
    expect(primary.status).toBe(200)
    await expectContract('setPrimaryIntegration', primary)
    const page = await request(nginx.url).get('/v1/channel-connections?limit=10').set(auth)
    expect(page.status).toBe(200)
    await expectContract('listChannelConnections', page)
    const marked = await markAs(auth, 'read')
    expect(marked.status).toBe(201)
    await expectContract('markMessagesAs', marked)
    expectBothInstances([upsert, subscriber, primary, page, marked])

    const state = await readState(nginx.url, auth)
    const ada = state.subscribers.find((s) => s.subscriberId === ADA)!
    expect(ada.channels?.find((c) => c.providerId === 'fcm')?.credentials.deviceTokens).toContain('through-nginx')
    expect(subscriber.body.channels.find((c: { providerId: string }) => c.providerId === 'fcm').credentials.deviceTokens).toContain('through-nginx')
    expect(state.integrations.filter((i) => i.channel === 'sms' && i.primary).map((i) => i._id)).toEqual([SMS_INTEGRATION])
    expect(page.body.data).toHaveLength(10)
    expect(state.channelConnections.map((c) => c.identifier)).toEqual(expect.arrayContaining(page.body.data.map((c: { identifier: string }) => c.identifier)))
    expect(state.messages.find((m) => m._id === M1)).toMatchObject({ read: true, seen: true })
  })

  it('passes Authorization, Prefer, idempotency-key and x-admin-token on to the instance', async () => {
    const auth = freshTenant()
    const forced = await getSubscriber(auth, { Prefer: 'code=404', 'idempotency-key': 'passed-key', 'x-admin-token': 'passed-token' })
    expect(forced.status).toBe(404)
    await expectContract('getSubscriber', forced)
    // Read from the instance that answered: what it was sent, whether or not journals are shared.
    const served = instances.find((instance) => new URL(instance.url).host === answeredBy(forced))!
    const journal = await request(served.url).get('/__admin/requests').set(auth)
    expect(journal.status).toBe(200)
    expect(journal.body.requests[0].headers).toMatchObject({ authorization: '[redacted]', prefer: 'code=404', 'idempotency-key': '[redacted]', 'x-admin-token': '[redacted]' })
  })

  it('lets /__admin bodies over 1 MiB through, and leaves the API body limit to the instance, answered in its error shape', async () => {
    const large = { Authorization: `ApiKey large-${crypto.randomUUID()}` }
    const created = await request(nginx.url).post('/__admin/tenants').set(freshTenant()).send({ apiKey: large.Authorization.slice('ApiKey '.length), subscribers: 200 })
    expect(created.status).toBe(201)
    const state = await request(nginx.url).get('/__admin/state').set(large)
    expect(state.status).toBe(200)
    expect(state.text.length).toBeGreaterThan(1024 * 1024)
    const target = freshTenant()
    const replaced = await request(nginx.url).put('/__admin/state').set(target).type('json').send(state.text)
    expect(replaced.status).toBe(200)
    expect((await readState(nginx.url, target)).subscribers).toHaveLength(200)

    const tooLarge = await request(nginx.url).patch(CREDENTIALS).set(target).send({ providerId: 'fcm', credentials: { deviceTokens: ['x'.repeat(1024 * 1024)] } })
    expect(tooLarge.status).toBe(413)
    await expectContract('upsertSubscriberCredentials', tooLarge)
  })

  it('streams journaled calls to a follower through it as they happen', async () => {
    const auth = freshTenant()
    const events = await openEvents(`${nginx.url}/__admin/events`, auth)
    try {
      expect(events.status).toBe(200)
      expect((await events.next())?.event).toBe('ready')
      // Called on the instance that serves the stream: what this shows is nginx passing events on unbuffered.
      const served = instances.find((instance) => new URL(instance.url).host === events.headers.get(UPSTREAM_HEADER))!
      expect((await request(served.url).get(`/v2/subscribers/${ADA}`).set(auth)).status).toBe(200)
      const event = await events.next()
      expect(event?.event).toBe('request')
      expect(JSON.parse(event!.data)).toMatchObject({ operationId: 'getSubscriber', status: 200 })
    } finally {
      events.close()
    }
  })

  describe('one mock, whichever instance answers', () => {
    it('streams the calls every instance answered', async () => {
      const auth = freshTenant()
      const events = await openEvents(`${nginx.url}/__admin/events`, auth)
      try {
        expect((await events.next())?.event).toBe('ready')
        const answers = [await getSubscriber(auth), await getSubscriber(auth)]
        expectBothInstances(answers)
        const streamed = [await events.next(), await events.next()]
        expect(streamed.map((event) => event?.event)).toEqual(['request', 'request'])
      } finally {
        events.close()
      }
    })

    it('verifies the calls spread over both instances', async () => {
      const auth = freshTenant()
      const answers: Answer[] = []
      for (const state of ['read', 'unread', 'read', 'unread']) answers.push(await markAs(auth, state))
      expect(answers.map((answer) => answer.status)).toEqual([201, 201, 201, 201])
      expectBothInstances(answers)
      const verify = (body: object) => request(nginx.url).post('/__admin/requests/verify').set(auth).send({ operationId: 'markMessagesAs', ...body })
      // Asked twice, so that each instance answers once.
      for (const verified of [await verify({ count: 4 }), await verify({ count: 2, bodyMatches: { markAs: 'read' } })]) {
        expect(verified.status).toBe(200)
        await expectContract('verifyRequests', verified, 'admin')
      }
      const journal = await request(nginx.url).get('/__admin/requests?operationId=markMessagesAs').set(auth)
      expect(journal.status).toBe(200)
      expect(journal.body.requests).toHaveLength(4)
      const wrong = await verify({ count: 5 })
      expect(wrong.status).toBe(417)
      await expectContract('verifyRequests', wrong, 'admin')
    })

    it('fires a fault rule set through it on both instances, and counts its times over both', async () => {
      const auth = freshTenant()
      const rule = await request(nginx.url).post('/__admin/faults').set(auth).send({ preset: 'unavailable', match: { operationId: 'getSubscriber' }, times: 4 })
      expect(rule.status).toBe(201)
      await expectContract('addFault', rule, 'admin')
      const firstTwo = [await getSubscriber(auth), await getSubscriber(auth)]
      expectBothInstances(firstTwo)
      for (const answer of firstTwo) {
        expect(answer.status).toBe(503)
        await expectContract('getSubscriber', answer)
      }
      const listed = await request(nginx.url).get('/__admin/faults').set(auth)
      expect(listed.status).toBe(200)
      await expectContract('listFaults', listed, 'admin')
      expect(listed.body.faults).toEqual([expect.objectContaining({ id: rule.body.id, matched: 2, applied: 2, times: 2 })])
      const rest: Answer[] = []
      for (let i = 0; i < 4; i++) rest.push(await getSubscriber(auth))
      expect(rest.map((answer) => answer.status)).toEqual([503, 503, 200, 200])
      expectBothInstances(rest.slice(0, 2))
      expect((await request(nginx.url).get('/__admin/faults').set(auth)).body.faults).toEqual([])
    })

    it('replays an idempotent retry on either instance, the change made once, and refuses the key with another body on both', async () => {
      const auth = freshTenant()
      const key = { 'idempotency-key': `retry-${crypto.randomUUID()}` }
      const first = await markAs(auth, 'read', key)
      expect(first.status).toBe(201)
      // A later change the replays must not undo.
      const later = await markAs(auth, 'unread')
      expect(later.status).toBe(201)
      const replays = [await markAs(auth, 'read', key), await markAs(auth, 'read', key)]
      expectBothInstances(replays)
      for (const replay of replays) {
        expect(replay.status).toBe(201)
        expect(replay.headers['idempotency-replay']).toBe('true')
        expect(replay.text).toBe(first.text)
        await expectContract('markMessagesAs', replay)
      }
      expect((await readState(nginx.url, auth)).messages.find((m) => m._id === M1)).toMatchObject({ read: false })
      const reused = [await markAs(auth, 'seen', key), await markAs(auth, 'seen', key)]
      expectBothInstances(reused)
      for (const answer of reused) {
        expect(answer.status).toBe(422)
        await expectContract('markMessagesAs', answer)
      }
    })
  })
})
