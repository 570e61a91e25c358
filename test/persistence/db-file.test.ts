import { spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { mkdirSync, mkdtempSync, readFileSync, rmdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import request from 'supertest'
import { describe, expect, it } from 'vitest'
import { expectContract } from '../helpers/expect-contract.ts'
import { readState } from '../helpers/read-state.ts'
import { freshTenant, startTestServer } from '../helpers/start-test-server.ts'

const dbFile = () => join(mkdtempSync(join(tmpdir(), 'novu-mock-db-')), 'state.json')
const ADA_CREDENTIALS = '/v1/subscribers/demo-subscriber-1/credentials'

const appendToken = (url: string, auth: { Authorization: string }, token: string) =>
  request(url).patch(ADA_CREDENTIALS).set(auth).send({ providerId: 'fcm', credentials: { deviceTokens: [token] } })

async function fcmTokens(url: string, auth: { Authorization: string }): Promise<string[]> {
  const res = await request(url).get('/v2/subscribers/demo-subscriber-1').set(auth)
  expect(res.status).toBe(200)
  const channel = (res.body.channels as { providerId: string; credentials: { deviceTokens?: string[] } }[]).find((c) => c.providerId === 'fcm')
  return channel?.credentials.deviceTokens ?? []
}

/** The CLI as a child process on a free port, with its URL read from the banner. */
async function startChild(args: string[]): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn('node', ['bin/novu-mock.js', '--port', '0', '--log-level', 'silent', ...args], { stdio: ['ignore', 'pipe', 'inherit'] })
  let banner = ''
  for await (const chunk of child.stdout!) {
    banner += String(chunk)
    const url = /listening on (http:\/\/\S+)/.exec(banner)?.[1]
    if (url) return { child, url }
  }
  throw new Error(`novu-mock did not start: ${banner}`)
}

describe('--db', () => {
  it('resumes every tenant, created tenant and snapshot after a restart', async () => {
    const db = dbFile()
    const first = await startTestServer({ db })
    const auth = freshTenant()
    expect((await appendToken(first.url, auth, 'kept-token')).status).toBe(200)
    expect((await request(first.url).post('/__admin/snapshots').set(auth).send({ name: 'before' })).status).toBe(201)
    expect((await request(first.url).post('/__admin/tenants').set(auth).send({ apiKey: 'made', seed: 5, subscribers: 4 })).status).toBe(201)
    const written = await readState(first.url, auth)
    await first.close()

    const second = await startTestServer({ db })
    expect(await readState(second.url, auth)).toEqual(written)
    expect((await readState(second.url, { Authorization: 'ApiKey made' })).subscribers).toHaveLength(4)
    const snapshots = await request(second.url).get('/__admin/snapshots').set(auth)
    expect(snapshots.body.snapshots.map((s: { name: string }) => s.name)).toEqual(['before'])
    await second.close()
  })

  it('answers 503 when the disk write fails, and keeps nothing it did not store', async () => {
    const db = dbFile()
    const server = await startTestServer({ db })
    const auth = freshTenant()
    expect((await appendToken(server.url, auth, 'stored')).status).toBe(200)
    const blocker = join(db, '..', '.state.json.tmp') // the atomic write's temporary file
    mkdirSync(blocker)
    const refused = await appendToken(server.url, auth, 'not-stored')
    expect(refused.status).toBe(503)
    await expectContract('upsertSubscriberCredentials', refused)
    expect(await fcmTokens(server.url, auth)).toEqual(['fcm-token-ada-1', 'stored'])
    rmdirSync(blocker)
    expect((await appendToken(server.url, auth, 'later')).status).toBe(200)
    await server.close()
    expect(JSON.stringify(JSON.parse(readFileSync(db, 'utf8')))).toContain('later')
  })

  it('loses no acknowledged write when killed with SIGKILL under write load', { timeout: 60_000 }, async () => {
    const db = dbFile()
    const { child, url } = await startChild(['--db', db])
    const auth = freshTenant()
    const acknowledged: string[] = []
    let stop = false
    const writer = async (w: number) => {
      for (let i = 0; !stop; i++) {
        const token = `w${w}-${i}`
        const res = await appendToken(url, auth, token).catch(() => undefined)
        if (res?.status === 200) acknowledged.push(token)
        else return
      }
    }
    const writers = Array.from({ length: 8 }, (_, w) => writer(w))
    await new Promise((resolve) => setTimeout(resolve, 400 + Math.floor(Math.random() * 600)))
    child.kill('SIGKILL')
    stop = true
    await Promise.all(writers)
    await once(child, 'exit')
    expect(acknowledged.length).toBeGreaterThan(0)
    expect(() => JSON.parse(readFileSync(db, 'utf8'))).not.toThrow()

    const restarted = await startChild(['--db', db])
    const tokens = new Set(await fcmTokens(restarted.url, auth))
    expect(acknowledged.filter((token) => !tokens.has(token))).toEqual([])
    console.log(`SIGKILL test: ${acknowledged.length} acknowledged writes, all present after restart`)
    restarted.child.kill('SIGKILL')
  })

  it('flushes and exits cleanly on SIGTERM', { timeout: 30_000 }, async () => {
    const db = dbFile()
    const { child, url } = await startChild(['--db', db])
    const auth = freshTenant()
    expect((await appendToken(url, auth, 'before-sigterm')).status).toBe(200)
    const started = Date.now()
    child.kill('SIGTERM')
    const [code] = (await once(child, 'exit')) as [number | null]
    expect(code).toBe(0)
    expect(Date.now() - started).toBeLessThan(2000) // a generous bound, not a benchmark
    expect(readFileSync(db, 'utf8')).toContain('before-sigterm')
  })
})
