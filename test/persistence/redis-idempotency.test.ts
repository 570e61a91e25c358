import { Redis } from 'ioredis'
import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startCli } from '../helpers/cli.ts'
import { expectContract } from '../helpers/expect-contract.ts'
import { redisTestsSkipped, startRedis, type RedisServer } from '../helpers/redis-server.ts'
import { freshTenant } from '../helpers/start-test-server.ts'
import { ADA_CREDENTIALS, fcmTokens, type Auth } from './helpers.ts'

/**
 * Idempotency records shared by several instances of the built CLI on one Redis
 * (docs/behaviour.md §4): a key is one key whichever instance answers, a killed instance leaves
 * no key stuck, and a record is stored with the write it records.
 */
type Instance = Awaited<ReturnType<typeof startCli>>

// Said once, by vitest.config.ts.
const skipped = redisTestsSkipped()

let redis: RedisServer
let peek: Redis
let a: Instance
let b: Instance
const started: Instance[] = []

const instance = async () => {
  const served = await startCli(['--port', '0', '--log-level', 'silent', '--redis', redis.url])
  started.push(served)
  return served
}

const kill = async ({ child }: Instance) => {
  const exited = new Promise((resolve) => child.once('exit', resolve))
  child.kill('SIGKILL')
  await exited
}

beforeAll(async () => {
  if (skipped) return
  redis = await startRedis()
  peek = new Redis(redis.url)
  ;[a, b] = await Promise.all([instance(), instance()])
})
afterAll(async () => {
  const running = started.filter(({ child }) => child.exitCode === null && child.signalCode === null)
  await Promise.all(running.map((served) => served.stop()))
  peek?.disconnect()
  await redis?.stop()
})

const keyed = (url: string, auth: Auth, key: string, token: string, prefer?: string) => {
  const call = request(url).patch(ADA_CREDENTIALS).set(auth).set('idempotency-key', key)
  if (prefer) call.set('Prefer', prefer)
  return call.send({ providerId: 'fcm', credentials: { deviceTokens: [token] } })
}

/** Resolves once some instance holds a running record of `key` in Redis (the call has begun). */
async function running(key: string): Promise<void> {
  for (;;) {
    const found = await peek.keys(`novu-mock:*:key:${key}`)
    if (found.length > 0) return
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

/** The answer to `send` once it is no longer a 409 (its key's first call has ended or its record has gone). */
async function pastConflict(send: () => Promise<request.Response>): Promise<request.Response> {
  for (;;) {
    const answer = await send()
    if (answer.status !== 409) return answer
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
}

const uniqueKey = (name: string) => `${name}-${Math.random().toString(36).slice(2)}`

describe.skipIf(skipped)('idempotency records shared over instances on one Redis', () => {
  it('replays on one instance a key answered by the other, and refuses it there with another body', async () => {
    const auth = freshTenant()
    const key = uniqueKey('replayed')
    const first = await keyed(a.url, auth, key, 'replayed-token')
    expect(first.status).toBe(200)
    const again = await keyed(b.url, auth, key, 'replayed-token')
    expect(again.status).toBe(200)
    expect(again.headers['idempotency-replay']).toBe('true')
    expect(again.body).toEqual(first.body)
    await expectContract('upsertSubscriberCredentials', again)
    expect((await fcmTokens(b.url, auth)).filter((token) => token === 'replayed-token')).toHaveLength(1)

    const reused = await keyed(b.url, auth, key, 'another-token')
    expect(reused.status).toBe(422)
    expect(reused.body.message).toBe(`Request with key "${key}" is being reused for a different body`)
    expect(reused.headers.link).toBe('https://docs.novu.co/additional-resources/idempotency')
    await expectContract('upsertSubscriberCredentials', reused)
    expect(await fcmTokens(a.url, auth)).not.toContain('another-token')
  })

  it('answers 409 on one instance while the key runs on the other, then replays it', async () => {
    const auth = freshTenant()
    const key = uniqueKey('running')
    // Long enough that the second call meets the first still running, however busy the machine.
    const slow = keyed(a.url, auth, key, 'slow-token', 'delay=8000').then((answer) => answer)
    await running(key)
    const meanwhile = await keyed(b.url, auth, key, 'slow-token')
    expect(meanwhile.status).toBe(409)
    expect(meanwhile.headers['retry-after']).toBe('1')
    await expectContract('upsertSubscriberCredentials', meanwhile)
    expect((await slow).status).toBe(200)
    const after = await keyed(b.url, auth, key, 'slow-token')
    expect([after.status, after.headers['idempotency-replay']]).toEqual([200, 'true'])
  })

  it('leaves no key stuck when the instance running it is killed: the retry runs once the record has lapsed', { timeout: 60_000 }, async () => {
    const auth = freshTenant()
    const doomed = await instance()
    const key = uniqueKey('killed')
    const lost = keyed(doomed.url, auth, key, 'killed-token', 'delay=30000').catch(() => undefined)
    await running(key)
    await kill(doomed)
    await lost
    // 409 while the dead call's record lives (at most 5 s unrenewed); a slow machine may reach past it.
    const first = await keyed(b.url, auth, key, 'killed-token')
    expect([409, 200]).toContain(first.status)
    const retried = first.status === 200 ? first : await pastConflict(() => keyed(b.url, auth, key, 'killed-token'))
    expect(retried.status).toBe(200)
    expect(retried.headers['idempotency-replay']).toBeUndefined()
    expect(await fcmTokens(a.url, auth)).toContain('killed-token')
  })

  it('stores each record with its write: a retry after a kill replays every write that was made, and runs every one that was not', { timeout: 90_000 }, async () => {
    const auth = freshTenant()
    const doomed = await instance()
    // Fewer than the 100 tokens a channel holds (docs/behaviour.md §2.1).
    const sent = Array.from({ length: 90 }, (_, i) => ({ key: uniqueKey(`burst-${i}`), token: `burst-token-${i}` }))
    let answered = 0
    const calls = sent.map(({ key, token }) =>
      keyed(doomed.url, auth, key, token).then(
        (answer) => void (answered += answer.status === 200 ? 1 : 0),
        () => undefined,
      ),
    )
    while (answered < 20) await new Promise((resolve) => setTimeout(resolve, 5))
    await kill(doomed)
    await Promise.all(calls)

    const written = new Set(await fcmTokens(a.url, auth))
    const retries = await Promise.all(sent.map(({ key, token }) => pastConflict(() => keyed(a.url, auth, key, token))))
    const wrong = sent.filter(({ token }, i) => {
      const replayed = retries[i]!.headers['idempotency-replay'] === 'true'
      return retries[i]!.status !== 200 || replayed !== written.has(token)
    })
    expect(wrong).toEqual([])
    expect(sent.filter(({ token }) => written.has(token)).length).toBeGreaterThanOrEqual(20)
  })
})
