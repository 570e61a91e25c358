import Database from 'better-sqlite3'
import { Redis } from 'ioredis'
import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import type { MockServer } from '../../src/app/create-mock-server.ts'
import type { Logger } from '../../src/log/logger.ts'
import { tenantKeys } from '../../src/redis/redis-keys.ts'
import { startCli, type Instance } from '../helpers/cli.ts'
import { expectContract } from '../helpers/expect-contract.ts'
import { redisTestsSkipped, startRedis } from '../helpers/redis-server.ts'
import { freshTenant, startTestServer } from '../helpers/start-test-server.ts'
import { ADA } from '../helpers/well-known.ts'
import { dbFile, type Auth } from '../persistence/helpers.ts'

const LAST = '9999-12-31T23:59:59.999Z'
const LAST_MS = Date.parse(LAST)
const CREDENTIALS = `/v1/subscribers/${ADA}/credentials`
const MARK_AS = `/v1/subscribers/${ADA}/messages/mark-as`
const slack = (webhookUrl: string) => ({ providerId: 'slack', credentials: { webhookUrl } })
const yearOf = (iso: string) => new Date(iso).getUTCFullYear()

/** The clock routes and the calls a test makes around them, on one server. */
function clockCalls(url: () => string) {
  return {
    get: async (auth: Auth) => {
      const res = await request(url()).get('/__admin/clock').set(auth)
      await expectContract('getClock', res, 'admin')
      return res.body as { now: string; frozen: boolean }
    },
    set: (auth: Auth, body: { now: string; frozen?: boolean }) => request(url()).put('/__admin/clock').set(auth).send(body),
    advance: (auth: Auth, ms: number) => request(url()).post('/__admin/clock/advance').set(auth).send({ ms }),
    patch: (auth: Auth, webhookUrl: string) => request(url()).patch(CREDENTIALS).set(auth).send(slack(webhookUrl)),
  }
}

/** A 422 in the admin document's shape whose message names the range's end. */
async function expectRefused(res: request.Response, operationId: string, field: string): Promise<void> {
  expect(res.status).toBe(422)
  await expectContract(operationId, res, 'admin')
  expect(JSON.stringify(res.body.errors[field])).toContain(LAST)
}

describe('a tenant’s clock stays within years 0001-9999 (docs/behaviour.md §8), served by the CLI', () => {
  let cli: Instance
  const calls = clockCalls(() => cli.url)
  beforeAll(async () => {
    cli = await startCli(['--port', '0'])
  })
  afterAll(() => cli.stop())

  it('refuses an advance to the last instant a Date holds, changing nothing; the key’s next calls answer and the process lives', async () => {
    const auth = freshTenant()
    const ms = 8.64e15 - Date.now() - 1000
    await expectRefused(await calls.advance(auth, ms), 'advanceClock', 'ms')
    // Past the last instant a Date holds, then within a second of it: still nothing moved.
    await expectRefused(await calls.advance(auth, ms + 2000), 'advanceClock', 'ms')
    const clock = await calls.get(auth)
    expect(clock.frozen).toBe(false)
    expect(Math.abs(Date.parse(clock.now) - Date.now())).toBeLessThan(60_000)
    const read = await request(cli.url).get(`/v2/subscribers/${ADA}`).set(auth)
    expect(read.status).toBe(200)
    await expectContract('getSubscriber', read)
    const patched = await calls.patch(auth, 'https://hooks.example.com/after')
    expect(patched.status).toBe(200)
    expect(yearOf(patched.body.updatedAt)).toBe(new Date().getUTCFullYear())
    expect((await request(cli.url).get('/__admin/health')).status).toBe(200)
    expect([cli.child.exitCode, cli.child.signalCode]).toEqual([null, null])
  })

  it('takes the last instant frozen, refuses a millisecond more, and every record and admin answer stays in the document', async () => {
    const auth = freshTenant()
    const set = await calls.set(auth, { now: LAST })
    expect([set.status, set.body]).toEqual([200, { now: LAST, frozen: true }])
    await expectRefused(await calls.advance(auth, 1), 'advanceClock', 'ms')
    expect(await calls.get(auth)).toEqual({ now: LAST, frozen: true })

    const patched = await calls.patch(auth, 'https://hooks.example.com/last')
    expect(patched.status).toBe(200)
    await expectContract('upsertSubscriberCredentials', patched)
    expect(patched.body.updatedAt).toBe(LAST)
    expect((await request(cli.url).delete('/__admin/clock').set(auth)).status).toBe(200)

    const read = await request(cli.url).get(`/v2/subscribers/${ADA}`).set(auth)
    expect([read.status, read.body.updatedAt]).toEqual([200, LAST])
    const state = await request(cli.url).get('/__admin/state').set(auth)
    expect(state.status).toBe(200)
    await expectContract('getState', state, 'admin')
    const journal = await request(cli.url).get('/__admin/requests').set(auth)
    expect(journal.status).toBe(200)
    await expectContract('listRequests', journal, 'admin')
    expect(journal.body.requests.map((entry: { status: number }) => entry.status)).toEqual([200, 200])
  })

  it('refuses a set out of the range by its zone, and a running clock less than a year from the end', async () => {
    const auth = freshTenant()
    const start = await calls.set(auth, { now: '2025-03-01T12:00:00.000Z' })
    expect(start.status).toBe(200)
    await expectRefused(await calls.set(auth, { now: '9999-12-31T23:59:59.999-01:00' }), 'setClock', 'now')
    await expectRefused(await calls.set(auth, { now: '0001-01-01T00:00:00.000+01:00' }), 'setClock', 'now')
    await expectRefused(await calls.set(auth, { now: '9999-06-01T00:00:00.000Z', frozen: false }), 'setClock', 'now')
    expect(await calls.get(auth)).toEqual({ now: '2025-03-01T12:00:00.000Z', frozen: true })

    const running = await calls.set(auth, { now: '9998-12-01T00:00:00.000Z', frozen: false })
    expect([running.status, running.body.frozen]).toEqual([200, false])
    await expectRefused(await calls.advance(auth, 31 * 24 * 60 * 60 * 1000), 'advanceClock', 'ms')
    expect(yearOf((await calls.get(auth)).now)).toBe(9998)
    expect((await calls.set(auth, { now: '0001-01-01T00:00:00.000Z' })).status).toBe(200)
  })
})

describe('a clock stored out of the range by an older version (--db)', () => {
  // Two starts of the CLI on a shared machine.
  it('is put back on real time when the file is loaded, with a warn line', { timeout: 60_000 }, async () => {
    const db = dbFile()
    const auth = freshTenant()
    const key = auth.Authorization.slice('ApiKey '.length)
    const first = await startCli(['--port', '0', '--db', db])
    const calls = clockCalls(() => first.url)
    expect((await calls.set(auth, { now: '2025-03-01T12:00:00.000Z' })).status).toBe(200)
    await first.stop()
    // What an older version kept after the advance of the issue: a time past the last instant a Date holds.
    const file = new Database(db)
    file.prepare('UPDATE clocks SET clock = ? WHERE tenant = ?').run(JSON.stringify({ at: 8.64e15 + 1000, frozen: true, since: 0 }), key)
    file.close()

    const second = await startCli(['--port', '0', '--db', db, '--log-level', 'warn'])
    try {
      // Told at the start, before any call of the tenant (the log is written asynchronously).
      await vi.waitFor(() => expect(second.stderr()).toMatch(/"level":40,.*"msg":"a stored clock was out of the years 0001-9999/), { timeout: 30_000 })
      const again = clockCalls(() => second.url)
      const clock = await again.get(auth)
      expect(clock.frozen).toBe(false)
      expect(Math.abs(Date.parse(clock.now) - Date.now())).toBeLessThan(60_000)
      const patched = await again.patch(auth, 'https://hooks.example.com/back')
      expect(patched.status).toBe(200)
      expect(yearOf(patched.body.updatedAt)).toBe(new Date().getUTCFullYear())
    } finally {
      await second.stop()
    }
    const kept = new Database(db, { readonly: true })
    expect(kept.prepare('SELECT clock FROM clocks WHERE tenant = ?').pluck().get(key)).toBe('null')
    kept.close()
  })
})

describe.skipIf(redisTestsSkipped())('a clock stored out of the range in Redis', () => {
  it('is read as real time, put back on it, and told of', { timeout: 60_000 }, async () => {
    const redis = await startRedis()
    const warnings: string[] = []
    const ignore = () => undefined
    const logger: Logger = { enabled: () => true, debug: ignore, info: ignore, error: ignore, request: ignore, warn: (message) => void warnings.push(message) }
    const mock = await startTestServer({ redis: redis.url, logger })
    const direct = new Redis(redis.url)
    try {
      const auth = freshTenant()
      const calls = clockCalls(() => mock.url)
      expect((await calls.set(auth, { now: '2025-03-01T12:00:00.000Z' })).status).toBe(200)
      // Stored as a change of the tenant's value (its `clock` field), listed as `reload`: every instance reads the tenant again.
      const { meta, log } = tenantKeys(auth.Authorization.slice('ApiKey '.length))
      const version = Number(await direct.hget(meta, 'v')) + 1
      await direct.multi().hset(meta, 'clock', JSON.stringify({ at: LAST_MS - 1000, frozen: false, since: Date.now() - 3_600_000 })).rpush(log, `${version}\nreload`).hset(meta, 'v', version).exec()
      const patched = await calls.patch(auth, 'https://hooks.example.com/back')
      expect(patched.status).toBe(200)
      expect(yearOf(patched.body.updatedAt)).toBe(new Date().getUTCFullYear())
      expect(warnings).toContain('a stored clock was out of the years 0001-9999: the tenant is back on real time')
      expect((await calls.get(auth)).frozen).toBe(false)
      await vi.waitFor(async () => expect(await direct.hget(meta, 'clock')).toBe('null'))
    } finally {
      direct.disconnect()
      await mock.close()
      await redis.stop()
    }
  })
})

describe('a call whose answer breaks the document stores nothing (docs/behaviour.md §1.3)', () => {
  let mock: MockServer
  beforeAll(async () => {
    // The real clock itself past 9999: every stamp a write makes has a five-digit year, which `date-time` refuses.
    mock = await startTestServer({ now: () => new Date(LAST_MS + 1) })
  })
  afterAll(() => mock.close())

  it('answers the 500 stamped with the real time, and the records stay as they were', async () => {
    const auth = freshTenant()
    const before = await request(mock.url).get(`/v2/subscribers/${ADA}`).set(auth)
    expect(before.status).toBe(200)
    const patched = await request(mock.url).patch(CREDENTIALS).set(auth).send(slack('https://hooks.example.com/never'))
    expect(patched.status).toBe(500)
    await expectContract('upsertSubscriberCredentials', patched)
    expect(yearOf(patched.body.timestamp)).toBe(new Date().getUTCFullYear())
    const messages = await request(mock.url).get(`/__admin/state`).set(auth)
    const ids = (messages.body.messages as { _id: string; _subscriberId: string }[]).filter((m) => m._subscriberId === before.body._id).map((m) => m._id)
    const marked = await request(mock.url).post(MARK_AS).set(auth).send({ messageId: ids.slice(0, 2), markAs: 'read' })
    expect(marked.status).toBe(500)

    const after = await request(mock.url).get(`/v2/subscribers/${ADA}`).set(auth)
    expect([after.status, after.body]).toEqual([200, before.body])
    const state = await request(mock.url).get('/__admin/state').set(auth)
    expect(state.status).toBe(200)
    expect(state.body).toEqual(messages.body)
  })
})
