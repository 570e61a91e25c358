import { once } from 'node:events'
import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { redisInstances, runCli, type Instance } from '../helpers/cli.ts'
import { expectContract } from '../helpers/expect-contract.ts'
import { freePort } from '../helpers/free-port.ts'
import { readState } from '../helpers/read-state.ts'
import { redisTestsSkipped, startRedis, type RedisServer } from '../helpers/redis-server.ts'
import { freshTenant } from '../helpers/start-test-server.ts'
import { appendToken, fcmTokens, type Auth } from './helpers.ts'
import { ADA, INTEGRATIONS } from '../helpers/well-known.ts'

/**
 * Several instances of the built CLI on one Redis, all started here (docs/behaviour.md §7): what
 * one acknowledges the next read on another sees, the invariants of §2 hold under writes spread
 * over them, and one killed with SIGKILL leaves the others answering with every acknowledged write.
 */
// Said once, by vitest.config.ts.
const skipped = redisTestsSkipped()

let redis: RedisServer
let a: Instance
let b: Instance
const instances = redisInstances()
const instance = instances.start

beforeAll(async () => {
  if (skipped) return
  redis = await startRedis()
  ;[a, b] = await Promise.all([instance(redis.url), instance(redis.url)])
})
afterAll(async () => {
  await instances.stopAll()
  await redis?.stop()
})

/** The subscribers a tenant is seeded with. */
const subscriberIds = async (url: string, auth: Auth) => (await readState(url, auth)).subscribers.map((s) => s.subscriberId)

describe.skipIf(skipped)('several instances on one Redis', () => {
  it('a write acknowledged by one instance is seen by the next read on the other', async () => {
    const auth = freshTenant()
    expect((await appendToken(a.url, auth, 'written-on-a')).status).toBe(200)
    expect(await fcmTokens(b.url, auth)).toContain('written-on-a')
    expect((await appendToken(b.url, auth, 'written-on-b')).status).toBe(200)
    expect(await fcmTokens(a.url, auth)).toEqual(expect.arrayContaining(['written-on-a', 'written-on-b']))
  })

  it('answers a write from the records as they stand, though another instance changed them since this one last looked', async () => {
    const auth = freshTenant()
    expect(await fcmTokens(a.url, auth)).toEqual(expect.any(Array))
    const state = await readState(b.url, auth)
    const ada = state.subscribers.find((s) => s.subscriberId === ADA)!
    state.subscribers.push({ ...ada, _id: '64f0000000000000000000ff', subscriberId: 'added-on-b' })
    expect((await request(b.url).put('/__admin/state').set(auth).send(state)).status).toBe(200)
    // Instance a still holds the tenant as it was: the subscriber is new to it.
    const written = await appendToken(a.url, auth, 'for-the-new-one', 'added-on-b')
    expect(written.status).toBe(200)
    await expectContract('upsertSubscriberCredentials', written)
    expect(await fcmTokens(b.url, auth, 'added-on-b')).toContain('for-the-new-one')
  })

  it('answers 200 to 200 concurrent appends spread over two instances, and loses none', { timeout: 60_000 }, async () => {
    const auth = freshTenant()
    // Four subscribers: a channel holds at most 100 tokens (docs/behaviour.md §2.1).
    const subscribers = (await subscriberIds(a.url, auth)).slice(0, 4)
    const sent = Array.from({ length: 200 }, (_, i) => ({ on: i % 2 === 0 ? a : b, token: `spread-${i}`, subscriberId: subscribers[i % 4]! }))
    const answers = await Promise.all(sent.map(({ on, token, subscriberId }) => appendToken(on.url, auth, token, subscriberId)))
    expect(answers.map((answer) => answer.status)).toEqual(sent.map(() => 200))
    for (const on of [a, b]) {
      for (const subscriberId of subscribers) {
        const tokens = await fcmTokens(on.url, auth, subscriberId)
        expect(tokens).toEqual(expect.arrayContaining(sent.filter((s) => s.subscriberId === subscriberId).map((s) => s.token)))
        expect(new Set(tokens).size).toBe(tokens.length)
      }
    }
  })

  it('leaves one active primary per channel after concurrent set-primary calls over both', async () => {
    const auth = freshTenant()
    const ids = [INTEGRATIONS.sendgrid, INTEGRATIONS.mailgun, INTEGRATIONS.twilio, INTEGRATIONS.plivo]
    const answers = await Promise.all(Array.from({ length: 100 }, (_, i) => request((i % 2 ? a : b).url).post(`/v1/integrations/${ids[i % 4]}/set-primary`).set(auth)))
    expect(answers.filter((answer) => answer.status !== 200)).toEqual([])
    for (const on of [a, b]) {
      const { integrations } = await readState(on.url, auth)
      for (const channel of ['email', 'sms']) {
        const primaries = integrations.filter((i) => i.channel === channel && i.primary)
        expect(primaries).toHaveLength(1)
        expect(primaries[0]!.active).toBe(true)
      }
    }
  })

  it('keeps read ⇒ seen over concurrent mark-as calls over both', async () => {
    const auth = freshTenant()
    const states = ['read', 'seen', 'unread', 'unseen']
    const ids = Array.from({ length: 10 }, (_, i) => `64f2000000000000000000${String(i + 1).padStart(2, '0')}`)
    const answers = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        request((i % 2 ? a : b).url).post(`/v1/subscribers/${ADA}/messages/mark-as`).set(auth).send({ messageId: ids.slice(i % 5, (i % 5) + 4), markAs: states[i % 4] }),
      ),
    )
    expect(answers.filter((answer) => answer.status !== 201)).toEqual([])
    const { messages } = await readState(b.url, auth)
    expect(messages.filter((m) => m.read && !m.seen)).toEqual([])
    expect(messages.some((m) => m.read || m.seen)).toBe(true)
  })

  it('restores through one instance a snapshot saved through the other', async () => {
    const auth = freshTenant()
    expect((await appendToken(a.url, auth, 'before-snapshot')).status).toBe(200)
    const saved = await request(a.url).post('/__admin/snapshots').set(auth).send({ name: 'shared' })
    expect(saved.status).toBe(201)
    expect((await appendToken(b.url, auth, 'after-snapshot')).status).toBe(200)
    const listed = await request(b.url).get('/__admin/snapshots').set(auth)
    expect(listed.body.snapshots.map((s: { name: string }) => s.name)).toEqual(['shared'])
    const restored = await request(b.url).post('/__admin/snapshots/shared/restore').set(auth)
    expect(restored.status).toBe(200)
    await expectContract('restoreSnapshot', restored, 'admin')
    expect(await fcmTokens(a.url, auth)).toEqual(expect.arrayContaining(['before-snapshot']))
    expect(await fcmTokens(a.url, auth)).not.toContain('after-snapshot')
  })

  it('stores a state of 60,000 connections put through one instance, read whole on the other', { timeout: 60_000 }, async () => {
    const source = { Authorization: `ApiKey large-source-${Math.random().toString(36).slice(2)}` }
    const apiKey = source.Authorization.replace('ApiKey ', '')
    expect((await request(a.url).post('/__admin/tenants').set(freshTenant()).send({ apiKey, seed: 7, channelConnections: 60_000 })).status).toBe(201)
    const large = await readState(a.url, source)
    const auth = freshTenant()
    expect((await request(a.url).put('/__admin/state').set(auth).send(large)).status).toBe(200)
    expect((await readState(b.url, auth)).channelConnections).toEqual(large.channelConnections)
  })

  it('shows a reset through one instance on every instance, the reset of all tenants too', async () => {
    const [first, second] = [freshTenant(), freshTenant()]
    for (const auth of [first, second]) expect((await appendToken(a.url, auth, 'to-be-reset')).status).toBe(200)
    expect((await request(b.url).post('/__admin/reset').set(first)).status).toBe(200)
    expect(await fcmTokens(a.url, first)).not.toContain('to-be-reset')
    expect(await fcmTokens(a.url, second)).toContain('to-be-reset')
    expect((await request(b.url).post('/__admin/reset?all=true').set(first)).status).toBe(200)
    expect(await fcmTokens(a.url, second)).not.toContain('to-be-reset')
  })

  it('shares the tenants created through the admin API', async () => {
    const apiKey = `created-${Math.random().toString(36).slice(2)}`
    const created = await request(a.url).post('/__admin/tenants').set(freshTenant()).send({ apiKey, seed: 5, subscribers: 4, channelConnections: 3 })
    expect(created.status).toBe(201)
    const state = await readState(b.url, { Authorization: `ApiKey ${apiKey}` })
    expect([state.subscribers.length, state.channelConnections.length]).toEqual([4, 3])
    expect((await request(b.url).post('/__admin/tenants').set(freshTenant()).send({ apiKey })).status).toBe(409)
  })

  it('lists on each instance the tenants with state, whichever instance wrote or created them', async () => {
    const written = freshTenant()
    expect((await appendToken(a.url, written, 'listed-on-b')).status).toBe(200)
    const apiKey = `listed-${Math.random().toString(36).slice(2)}`
    expect((await request(a.url).post('/__admin/tenants').set(freshTenant()).send({ apiKey, seed: 3, subscribers: 2, channelConnections: 1 })).status).toBe(201)
    const listed = await request(b.url).get('/__admin/tenants')
    expect(listed.status).toBe(200)
    await expectContract('listTenants', listed, 'admin')
    const byKey = new Map((listed.body.tenants as { apiKey: string }[]).map((tenant) => [tenant.apiKey, tenant]))
    const writtenKey = written.Authorization.slice('ApiKey '.length)
    expect(byKey.get(writtenKey)).toEqual({ apiKey: writtenKey, calls: 0, kept: true, created: false })
    expect(byKey.get(apiKey)).toEqual({ apiKey, calls: 0, kept: true, created: true })
  })

  it('bounds each instance’s memory on its own: a tenant released from one comes back from Redis with its writes', { timeout: 60_000 }, async () => {
    const own = await startRedis()
    const [first, second] = await Promise.all([instance(own.url, '--max-tenants', '1'), instance(own.url, '--max-tenants', '1')])
    try {
      const [a, b] = [freshTenant(), freshTenant()]
      expect((await appendToken(first.url, a, 'one')).status).toBe(200)
      // No bound across instances: the second serves b while the first holds a.
      expect((await appendToken(second.url, b, 'two')).status).toBe(200)
      expect((await appendToken(first.url, b, 'three')).status).toBe(200)
      expect((await request(first.url).get('/__admin/tenants')).body.released).toBe(1)
      expect(await fcmTokens(first.url, a)).toEqual(['fcm-token-ada-1', 'one'])
      expect(await fcmTokens(second.url, b)).toEqual(['fcm-token-ada-1', 'two', 'three'])
      const health = await request(second.url).get('/__admin/health')
      await expectContract('getHealth', health, 'admin')
      expect(health.body.storedTenants).toBe(2)
    } finally {
      await Promise.all([first.stop(), second.stop()])
      await own.stop()
    }
  })

  it('refuses to start with other seed options than the instances before it, and says why in one line', async () => {
    const run = await runCli(['--port', '0', '--redis', redis.url, '--seed', '99'])
    expect(run.code).not.toBe(0)
    expect(run.stderr.trim().split('\n')).toHaveLength(1)
    expect(run.stderr).toContain('holds tenants made with the seed options --seed 1')
    expect(run.stderr).toContain('this instance was started with --seed 99')
  })

  it('answers 503 while its Redis cannot be reached, never a 500 or a hang', { timeout: 60_000 }, async () => {
    const own = await startRedis()
    const served = await instance(own.url)
    const auth = freshTenant()
    try {
      expect((await appendToken(served.url, auth, 'before-redis-stopped')).status).toBe(200)
      await own.stop()
      for (const answer of [await appendToken(served.url, auth, 'while-redis-stopped'), await request(served.url).get(`/v2/subscribers/${ADA}`).set(auth)]) {
        expect(answer.status).toBe(503)
        await expectContract(answer.request.method === 'GET' ? 'getSubscriber' : 'upsertSubscriberCredentials', answer)
      }
    } finally {
      await served.stop()
    }
  })

  it('stops a start whose Redis cannot be reached with one line, without the password', async () => {
    const run = await runCli(['--port', '0', '--redis', `redis://user:secret-password@127.0.0.1:${await freePort()}`])
    expect(run.code).not.toBe(0)
    expect(run.stderr.trim().split('\n')).toHaveLength(1)
    expect(run.stderr).toMatch(/--redis redis:\/\/\*\*\*@127\.0\.0\.1:\d+: cannot connect \(.*ECONNREFUSED/)
    expect(run.stderr).not.toContain('secret-password')
  })

  it('loses no acknowledged write when an instance is killed with SIGKILL, and the other goes on answering', { timeout: 60_000 }, async () => {
    const doomed = await instance(redis.url)
    const auth = freshTenant()
    const subscribers = (await subscriberIds(a.url, auth)).slice(0, 4)
    const acknowledged: { token: string; subscriberId: string }[] = []
    let stopped = false
    const writer = async (w: number) => {
      for (let i = 0; !stopped; i++) {
        const write = { token: `killed-${w}-${i}`, subscriberId: subscribers[(w + i) % 4]! }
        const res = await appendToken((i % 2 ? a : doomed).url, auth, write.token, write.subscriberId).catch(() => undefined)
        if (res?.status !== 200) return
        acknowledged.push(write)
        if (i >= 20) return
      }
    }
    const writers = Array.from({ length: 4 }, (_, w) => writer(w))
    await new Promise((resolve) => setTimeout(resolve, 200 + Math.floor(Math.random() * 300)))
    doomed.child.kill('SIGKILL')
    stopped = true
    await Promise.all(writers)
    if (doomed.child.exitCode === null && doomed.child.signalCode === null) await once(doomed.child, 'exit')
    expect(acknowledged.length).toBeGreaterThan(0)
    // readState checks every record against the admin document: nothing half-written.
    const { subscribers: stored } = await readState(a.url, auth)
    const tokensOf = (subscriberId: string) => stored.find((s) => s.subscriberId === subscriberId)!.channels?.find((c) => c.providerId === 'fcm')?.credentials.deviceTokens ?? []
    for (const { token, subscriberId } of acknowledged) expect(tokensOf(subscriberId)).toContain(token)
    expect((await appendToken(a.url, auth, 'after-the-kill')).status).toBe(200)
  })
})
