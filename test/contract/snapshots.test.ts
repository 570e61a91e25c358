import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { components } from '../../src/contract/generated/admin-types.ts'
import type { MockServer } from '../../src/app/create-mock-server.ts'
import type { TenantState } from '../../src/store/records.ts'
import { expectContract } from '../helpers/expect-contract.ts'
import { readState } from '../helpers/read-state.ts'
import { freshTenant, startTestServer } from '../helpers/start-test-server.ts'
import { ADA, adaMessage, GRACE, INTEGRATIONS } from '../helpers/well-known.ts'

type Auth = ReturnType<typeof freshTenant>
type SnapshotInfo = components['schemas']['SnapshotInfo']

const SEED_COUNTS = { subscribers: 50, integrations: 9, channelConnections: 120, messages: 253 }
const MAILGUN = INTEGRATIONS.mailgun
const ADA_MESSAGES = [adaMessage(1), adaMessage(2), adaMessage(3)]
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/

let server: MockServer
beforeAll(async () => {
  server = await startTestServer()
})
afterAll(() => server.close())

/** One admin call: its status and the admin document checked. */
async function admin(operationId: string, call: request.Test, status: number) {
  const res = await call
  expect(res.status, `${operationId} ${JSON.stringify(res.body)}`).toBe(status)
  await expectContract(operationId, res, 'admin')
  return res
}
const on = (target: MockServer = server) => request(target.url)
const save = (auth: Auth, body: unknown, status = 201, target = server) =>
  admin('saveSnapshot', on(target).post('/__admin/snapshots').set(auth).send(body as object), status)
const restore = (auth: Auth, name: string, status = 200, target = server) =>
  admin('restoreSnapshot', on(target).post(`/__admin/snapshots/${encodeURIComponent(name)}/restore`).set(auth), status)
const remove = (auth: Auth, name: string, status = 200) =>
  admin('deleteSnapshot', on().delete(`/__admin/snapshots/${encodeURIComponent(name)}`).set(auth), status)
const list = async (auth: Auth): Promise<SnapshotInfo[]> =>
  (await admin('listSnapshots', on().get('/__admin/snapshots').set(auth), 200)).body.snapshots

/** Writes through the API of each kind: mark-as, credentials upsert, set-primary. */
async function writeThroughApi(auth: Auth, token: string) {
  const marked = await on().post(`/v1/subscribers/${ADA}/messages/mark-as`).set(auth).send({ messageId: ADA_MESSAGES, markAs: 'read' })
  expect(marked.status).toBe(201)
  await expectContract('markMessagesAs', marked)
  const upserted = await on().patch(`/v1/subscribers/${GRACE}/credentials`).set(auth).send({ providerId: 'fcm', credentials: { deviceTokens: [token] } })
  expect(upserted.status).toBe(200)
  await expectContract('upsertSubscriberCredentials', upserted)
  const primary = await on().post(`/v1/integrations/${MAILGUN}/set-primary`).set(auth)
  expect(primary.status).toBe(200)
  await expectContract('setPrimaryIntegration', primary)
}

describe('snapshots: save, list, restore, delete', () => {
  it('saves with 201 and a SnapshotInfo whose counts are the state’s', async () => {
    const auth = freshTenant()
    const before = Date.now()
    const res = await save(auth, { name: 'seeded' })
    expect(res.body).toEqual({ name: 'seeded', createdAt: expect.stringMatching(ISO), counts: SEED_COUNTS })
    expect(Date.parse(res.body.createdAt)).toBeGreaterThanOrEqual(before - 1000)
    expect(await list(auth)).toEqual([res.body])
  })

  it('lists oldest first', async () => {
    const auth = freshTenant()
    for (const name of ['first', 'second', 'third']) await save(auth, { name })
    const snapshots = await list(auth)
    expect(snapshots.map((s) => s.name)).toEqual(['first', 'second', 'third'])
    const times = snapshots.map((s) => Date.parse(s.createdAt))
    expect(times).toEqual([...times].sort((a, b) => a - b))
  })

  it('restores exactly: the state deep-equals the one saved, later writes are gone, twice', async () => {
    const auth = freshTenant()
    await writeThroughApi(auth, 'before-snapshot')
    const saved = await readState(server.url, auth)
    await save(auth, { name: 'checkpoint' })
    for (const round of [1, 2]) {
      await writeThroughApi(auth, `after-snapshot-${round}`)
      const written = await readState(server.url, auth)
      expect(written).not.toEqual(saved)
      const res = await restore(auth, 'checkpoint')
      expect(res.body).toMatchObject({ name: 'checkpoint', counts: SEED_COUNTS })
      const restored = await readState(server.url, auth)
      expect(restored).toEqual(saved)
      expect(JSON.stringify(restored)).not.toContain(`after-snapshot-${round}`)
      const sub = await on().get(`/v2/subscribers/${GRACE}`).set(auth)
      expect(sub.status).toBe(200)
      await expectContract('getSubscriber', sub)
      expect(JSON.stringify(sub.body)).not.toContain(`after-snapshot-${round}`)
    }
    expect((await list(auth)).map((s) => s.name)).toEqual(['checkpoint'])
  })

  it('saving the same name replaces the snapshot', async () => {
    const auth = freshTenant()
    const first = await save(auth, { name: 'same' })
    await writeThroughApi(auth, 'second-save')
    const state = await readState(server.url, auth)
    const second = await save(auth, { name: 'same' })
    expect(Date.parse(second.body.createdAt)).toBeGreaterThanOrEqual(Date.parse(first.body.createdAt))
    expect(await list(auth)).toEqual([second.body])
    await writeThroughApi(auth, 'third-write')
    await restore(auth, 'same')
    expect(await readState(server.url, auth)).toEqual(state)
  })

  it('deletes with 200, then answers 404 for the deleted and for unknown names', async () => {
    const auth = freshTenant()
    const saved = await save(auth, { name: 'gone' })
    expect((await remove(auth, 'gone')).body).toEqual(saved.body)
    expect(await list(auth)).toEqual([])
    for (const res of [await remove(auth, 'gone', 404), await restore(auth, 'gone', 404)]) {
      expect(res.body.message).toBe('Snapshot gone not found')
      expect(res.body.statusCode).toBe(404)
    }
    expect((await restore(auth, 'never-saved', 404)).body.message).toBe('Snapshot never-saved not found')
  })

  it('keeps snapshots per tenant: another key cannot list, restore or delete them', async () => {
    const [owner, other] = [freshTenant(), freshTenant()]
    await save(owner, { name: 'mine' })
    expect(await list(other)).toEqual([])
    await restore(other, 'mine', 404)
    await remove(other, 'mine', 404)
    expect((await list(owner)).map((s) => s.name)).toEqual(['mine'])
  })

  it('keeps snapshots through POST /__admin/reset', async () => {
    const auth = freshTenant()
    await writeThroughApi(auth, 'before-reset')
    const saved = await readState(server.url, auth)
    await save(auth, { name: 'kept' })
    const reset = await admin('resetState', on().post('/__admin/reset').set(auth), 200)
    expect(reset.body).toEqual({ scope: 'tenant' })
    expect(await readState(server.url, auth)).not.toEqual(saved)
    expect((await list(auth)).map((s) => s.name)).toEqual(['kept'])
    await restore(auth, 'kept')
    expect(await readState(server.url, auth)).toEqual(saved)
  })
})

describe('snapshots: invalid requests', () => {
  it.each([['a b'], [''], ['x'.repeat(101)], ['../x']])('answers 422 for the name %j on save and changes nothing', async (name) => {
    const auth = freshTenant()
    const res = await save(auth, { name }, 422)
    expect(Object.keys(res.body.errors ?? {}).some((k) => k.includes('name')), JSON.stringify(res.body)).toBe(true)
    expect(await list(auth)).toEqual([])
  })

  it.each([['a b'], ['x'.repeat(101)], ['../x']])('answers 422 for the name %j in the restore and delete paths', async (name) => {
    const auth = freshTenant()
    await restore(auth, name, 422)
    await remove(auth, name, 422)
  })

  it('accepts a name of exactly 100 allowed characters', async () => {
    const name = 'Az09._-'.repeat(15).slice(0, 100)
    expect((await save(freshTenant(), { name })).body.name).toBe(name)
  })

  it.each([
    ['no name', {}],
    ['an extra field', { name: 'ok', other: 1 }],
    ['a numeric name', { name: 42 }],
  ])('answers 422 for a body with %s', async (_case, body) => {
    const auth = freshTenant()
    await save(auth, body, 422)
    expect(await list(auth)).toEqual([])
  })

  it('answers 400 for malformed JSON', async () => {
    const auth = freshTenant()
    const res = await admin('saveSnapshot', on().post('/__admin/snapshots').set(auth).set('Content-Type', 'application/json').send('{"name":'), 400)
    expect(res.body.statusCode).toBe(400)
    expect(await list(auth)).toEqual([])
  })
})

describe('snapshots of a tenant with 20,000 connections', () => {
  let big: MockServer
  beforeAll(async () => {
    big = await startTestServer({ volumes: { subscribers: 50, channelConnections: 20000 } })
  })
  afterAll(() => big.close())

  it('restores exactly after the connections were replaced', async () => {
    const auth = freshTenant()
    const saved: TenantState = await readState(big.url, auth)
    expect(saved.channelConnections).toHaveLength(20000)
    const started = performance.now()
    const info = await save(auth, { name: 'big' }, 201, big)
    const savedMs = performance.now() - started
    expect(info.body.counts.channelConnections).toBe(20000)

    const changed = structuredClone(saved)
    changed.channelConnections = changed.channelConnections.slice(0, 5000)
    changed.channelConnections[0]!.identifier = 'edited-after-snapshot'
    const put = await admin('putState', on(big).put('/__admin/state').set(auth).send(changed), 200)
    expect(put.body.channelConnections).toBe(5000)

    const restoreStarted = performance.now()
    await restore(auth, 'big', 200, big)
    const restoredMs = performance.now() - restoreStarted
    console.log(`snapshot of 20,000 connections: save ${savedMs.toFixed(1)} ms + restore ${restoredMs.toFixed(1)} ms = ${(savedMs + restoredMs).toFixed(1)} ms`)

    const after = await readState(big.url, auth)
    expect(after.channelConnections).toHaveLength(20000)
    for (const index of [0, 1, 4999, 5000, 12345, 19999]) {
      expect(after.channelConnections[index], `connection ${index}`).toEqual(saved.channelConnections[index])
    }
    expect(after.subscribers).toEqual(saved.subscribers)
    expect(after.integrations).toEqual(saved.integrations)
  })
})
