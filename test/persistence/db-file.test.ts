import { execFileSync } from 'node:child_process'
import { once } from 'node:events'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import request from 'supertest'
import { describe, expect, it } from 'vitest'
import type { TenantState } from '../../src/store/records.ts'
import { startCli } from '../helpers/cli.ts'
import { expectContract } from '../helpers/expect-contract.ts'
import { readState } from '../helpers/read-state.ts'
import { freshTenant, startTestServer } from '../helpers/start-test-server.ts'
import { appendToken, dbFile, fcmTokens, type Auth } from './helpers.ts'
import { ADA, adaMessage, INTEGRATIONS } from '../helpers/well-known.ts'

const markAs = (url: string, auth: Auth, messageId: string, markAs: string) =>
  request(url).post(`/v1/subscribers/${ADA}/messages/mark-as`).set(auth).send({ messageId, markAs })
const setPrimary = (url: string, auth: Auth, id: string) => request(url).post(`/v1/integrations/${id}/set-primary`).set(auth)
const admin = (url: string, auth: Auth) => ({
  put: (state: TenantState) => request(url).put('/__admin/state').set(auth).send(state),
  reset: () => request(url).post('/__admin/reset').set(auth),
  save: (name: string) => request(url).post('/__admin/snapshots').set(auth).send({ name }),
  restore: (name: string) => request(url).post(`/__admin/snapshots/${name}/restore`).set(auth),
  remove: (name: string) => request(url).delete(`/__admin/snapshots/${name}`).set(auth),
  snapshots: async () => ((await request(url).get('/__admin/snapshots').set(auth)).body.snapshots as { name: string }[]).map((s) => s.name),
})

describe('--db', () => {
  it('resumes every kind of change after a restart: records put, states replaced, resets, snapshots, created tenants, idempotency records', async () => {
    const db = dbFile()
    const first = await startTestServer({ db })
    const url = first.url
    const [written, replaced, reset, restored, keyed] = [freshTenant(), freshTenant(), freshTenant(), freshTenant(), freshTenant()]
    // Records put by the three writing operations.
    expect((await appendToken(url, written, 'kept-token')).status).toBe(200)
    expect((await markAs(url, written, adaMessage(1), 'read')).status).toBe(201)
    expect((await setPrimary(url, written, INTEGRATIONS.mailgun)).status).toBe(200)
    // A state replaced: a record edited, one removed, one added, a connection changed.
    const state = await readState(url, replaced)
    state.subscribers[3]!.firstName = 'Edited'
    const removed = state.messages.splice(20, 1)[0]!
    state.messages.push({ ...state.messages[0]!, _id: '64f9000000000000000000aa' })
    state.channelConnections[7]!.identifier = 'edited-connection'
    state.channelConnections.splice(3, 1)
    expect((await admin(url, replaced).put(state)).status).toBe(200)
    const replacedState = await readState(url, replaced)
    // Written, then reset.
    expect((await appendToken(url, reset, 'then-reset')).status).toBe(200)
    expect((await admin(url, reset).reset()).status).toBe(200)
    // Snapshots: one saved then the tenant changed and restored; one saved then deleted; one kept.
    expect((await appendToken(url, restored, 'in-snapshot')).status).toBe(200)
    expect((await admin(url, restored).save('kept')).status).toBe(201)
    expect((await appendToken(url, restored, 'after-snapshot')).status).toBe(200)
    expect((await admin(url, restored).save('deleted')).status).toBe(201)
    expect((await admin(url, restored).restore('kept')).status).toBe(200)
    expect((await admin(url, restored).remove('deleted')).status).toBe(200)
    expect((await admin(url, restored).save('latest')).status).toBe(201)
    // A tenant created with a seed of its own, then written.
    expect((await request(url).post('/__admin/tenants').set(freshTenant()).send({ apiKey: 'made', seed: 5, subscribers: 4 })).status).toBe(201)
    const made = { Authorization: 'ApiKey made' }
    expect((await appendToken(url, made, 'made-token')).status).toBe(200)
    // A keyed write, replayed after the restart rather than done again.
    const keyedCall = () =>
      appendToken(url, keyed, 'keyed-token').set('idempotency-key', 'key-1')
    const keyedAnswer = await keyedCall()
    expect(keyedAnswer.status).toBe(200)

    const before = await Promise.all([written, replaced, reset, restored, made, keyed].map((auth) => readState(url, auth)))
    await first.close()

    const second = await startTestServer({ db })
    const again = second.url
    const after = await Promise.all([written, replaced, reset, restored, made, keyed].map((auth) => readState(again, auth)))
    expect(after).toEqual(before)
    expect(after[1]).toEqual(replacedState)
    expect(after[1]!.messages.some((m) => m._id === removed._id)).toBe(false)
    expect(after[2]).toEqual(await readState(again, freshTenant()))
    expect(await fcmTokens(again, restored)).toEqual(['fcm-token-ada-1', 'in-snapshot'])
    expect(await admin(again, restored).snapshots()).toEqual(['kept', 'latest'])
    expect((await admin(again, restored).restore('kept')).status).toBe(200)
    expect(after[4]!.subscribers).toHaveLength(4)
    expect((await admin(again, made).reset()).status).toBe(200)
    expect((await readState(again, made)).subscribers).toHaveLength(4)
    expect(await fcmTokens(again, made)).toEqual(['fcm-token-ada-1'])
    const replay = await appendToken(again, keyed, 'keyed-token').set('idempotency-key', 'key-1')
    expect(replay.status).toBe(200)
    expect(replay.headers['idempotency-replay']).toBe('true')
    expect(replay.body).toEqual(keyedAnswer.body)
    await second.close()

    // The reset and the restore of the second run are kept too.
    const third = await startTestServer({ db })
    expect((await readState(third.url, made)).subscribers).toHaveLength(4)
    expect(await fcmTokens(third.url, made)).toEqual(['fcm-token-ada-1'])
    expect(await fcmTokens(third.url, restored)).toEqual(['fcm-token-ada-1', 'in-snapshot'])
    await third.close()
  })

  it('costs nothing on disk for a tenant that only reads', async () => {
    const db = dbFile()
    const server = await startTestServer({ db })
    const reader = freshTenant()
    await readState(server.url, reader)
    await server.close()
    const again = await startTestServer({ db, maxTenants: 1 })
    // The one place is free: the reader was not kept.
    expect((await request(again.url).get(`/v2/subscribers/${ADA}`).set(freshTenant())).status).toBe(200)
    await again.close()
  })

  const canMount = (() => {
    if (process.getuid?.() !== 0) return false
    const dir = mkdtempSync(join(tmpdir(), 'novu-mock-mount-'))
    try {
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=4m', 'tmpfs', dir], { stdio: 'ignore' })
      execFileSync('umount', [dir], { stdio: 'ignore' })
      return true
    } catch {
      return false
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })()

  // A real full disk: a small tmpfs, filled. Mounting one needs root.
  it.skipIf(!canMount)('answers 503 when the disk is full, and keeps nothing it did not store', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'novu-mock-full-'))
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=4m', 'tmpfs', dir])
    try {
      const server = await startTestServer({ db: join(dir, 'state.db') })
      const auth = freshTenant()
      expect((await appendToken(server.url, auth, 'stored')).status).toBe(200)
      fill(join(dir, 'filler'))
      const refused = await appendToken(server.url, auth, 'not-stored'.padEnd(4000, '-'))
      expect(refused.status).toBe(503)
      await expectContract('upsertSubscriberCredentials', refused)
      expect(await fcmTokens(server.url, auth)).toEqual(['fcm-token-ada-1', 'stored'])
      rmSync(join(dir, 'filler'))
      expect((await appendToken(server.url, auth, 'later')).status).toBe(200)
      await server.close()
      const again = await startTestServer({ db: join(dir, 'state.db') })
      expect(await fcmTokens(again.url, auth)).toEqual(['fcm-token-ada-1', 'stored', 'later'])
      await again.close()
    } finally {
      execFileSync('umount', [dir])
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('writes and unlocks the file on SIGTERM', { timeout: 30_000 }, async () => {
    const db = dbFile()
    const served = await startCli(['--port', '0', '--log-level', 'silent', '--db', db])
    const auth = freshTenant()
    expect((await appendToken(served.url, auth, 'before-sigterm')).status).toBe(200)
    served.child.kill('SIGTERM')
    const [code] = (await once(served.child, 'exit')) as [number | null]
    expect(code).toBe(0)
    const again = await startCli(['--port', '0', '--log-level', 'silent', '--db', db])
    expect(await fcmTokens(again.url, auth)).toEqual(['fcm-token-ada-1', 'before-sigterm'])
    await again.stop()
  })
})

/** Writes until the disk is full. */
function fill(file: string): void {
  const block = Buffer.alloc(64 * 1024)
  try {
    for (;;) writeFileSync(file, block, { flag: 'a' })
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error
  }
}
