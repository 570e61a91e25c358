// A trigger's recipients and actor are created or updated before the answer (docs/behaviour.md §11).
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { MockServer } from '../../src/app/create-mock-server.ts'
import { expectContract } from '../helpers/expect-contract.ts'
import { readState } from '../helpers/read-state.ts'
import { freshTenant, startTestServer } from '../helpers/start-test-server.ts'
import { ADA } from '../helpers/well-known.ts'

const CLOCK = '2026-03-01T12:00:00.000Z'
let server: MockServer
beforeAll(async () => {
  server = await startTestServer({ clock: Date.parse(CLOCK) })
})
afterAll(() => server.close())

const api = () => request(server.url)

describe('POST /v1/events/trigger', () => {
  it('creates a new recipient with the fields given, before it answers 201 processed', async () => {
    const auth = freshTenant()
    const res = await api().post('/v1/events/trigger').set(auth).send({ name: 'any-workflow', to: { subscriberId: 'new-1', email: 'n@example.com' } })
    expect(res.status).toBe(201)
    await expectContract('EventsController_trigger', res, 'novu')
    expect(res.body).toMatchObject({ acknowledged: true, status: 'processed' })
    // `txn_`, the clock's Unix seconds in hex, then 12 of [0-9a-z].
    expect(res.body.transactionId).toMatch(new RegExp(`^txn_${(Date.parse(CLOCK) / 1000).toString(16)}[0-9a-z]{12}$`))
    const got = await api().get('/v2/subscribers/new-1').set(auth)
    expect(got.status).toBe(200)
    expect(got.body).toMatchObject({ subscriberId: 'new-1', email: 'n@example.com', createdAt: CLOCK })
  })

  it('updates known recipients with the fields given, leaves absent ones, takes strings, arrays and the actor; a topic changes nothing', async () => {
    const auth = freshTenant()
    const before = await readState(server.url, auth)
    const res = await api()
      .post('/v1/events/trigger')
      .set(auth)
      .send({
        name: 'welcome',
        transactionId: 'my-txn',
        to: [{ subscriberId: ADA, lastName: 'Byron' }, 'plain-id', { type: 'Topic', topicKey: 'news' }],
        actor: { subscriberId: 'actor-1', firstName: 'Act' },
      })
    expect(res.status).toBe(201)
    expect(res.body).toEqual({ acknowledged: true, status: 'processed', transactionId: 'my-txn' })
    const ada = (await api().get(`/v2/subscribers/${ADA}`).set(auth)).body
    expect(ada).toMatchObject({ firstName: 'Ada', lastName: 'Byron', email: before.subscribers.find((s) => s.subscriberId === ADA)!.email })
    expect((await api().get('/v2/subscribers/plain-id').set(auth)).status).toBe(200)
    expect((await api().get('/v2/subscribers/actor-1').set(auth)).body.firstName).toBe('Act')
    const after = await readState(server.url, auth)
    expect(after.subscribers).toHaveLength(before.subscribers.length + 2)
    // No workflow runs: no message is made.
    expect(after.messages).toHaveLength(before.messages.length)
  })
})

describe('POST /v1/events/trigger/bulk', () => {
  it('answers one result per event in order, each event’s recipients kept', async () => {
    const auth = freshTenant()
    const res = await api()
      .post('/v1/events/trigger/bulk')
      .set(auth)
      .send({ events: [{ name: 'a', to: 'bulk-1', transactionId: 't-1' }, { name: 'b', to: ['bulk-2'], transactionId: 't-2' }] })
    expect(res.status).toBe(201)
    await expectContract('EventsController_triggerBulk', res, 'novu')
    expect(res.body).toEqual([
      { acknowledged: true, status: 'processed', transactionId: 't-1' },
      { acknowledged: true, status: 'processed', transactionId: 't-2' },
    ])
    expect((await api().get('/v2/subscribers/bulk-2').set(auth)).status).toBe(200)
  })

  it('refuses no events or more than 100 with a 422, nothing kept', async () => {
    const auth = freshTenant()
    const none = await api().post('/v1/events/trigger/bulk').set(auth).send({ events: [] })
    expect(none.status).toBe(422)
    expect(none.body.errors.general.messages).toEqual(['events must contain at least 1 elements'])
    const events = Array.from({ length: 101 }, (_, i) => ({ name: 'w', to: `many-${i}` }))
    const many = await api().post('/v1/events/trigger/bulk').set(auth).send({ events })
    expect(many.status).toBe(422)
    expect(many.body.errors.general.messages).toEqual(['events must contain no more than 100 elements'])
    expect((await api().get('/v2/subscribers/many-0').set(auth)).status).toBe(404)
  })
})

describe('DELETE /v1/events/trigger/{transactionId}', () => {
  it('answers 200 false: the mock delays nothing to cancel', async () => {
    const res = await api().delete('/v1/events/trigger/my-txn').set(freshTenant())
    expect(res.status).toBe(200)
    expect(res.body).toBe(false)
  })
})

describe('a tenant with workflows', () => {
  let withWorkflows: MockServer
  beforeAll(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'novu-mock-workflows-'))
    writeFileSync(
      join(dir, 'workflows.json'),
      JSON.stringify([
        { workflowId: 'welcome', name: 'Welcome', active: true },
        { workflowId: 'paused', name: 'Paused', active: false },
      ]),
    )
    withWorkflows = await startTestServer({ fixtures: { dir, mode: 'merge' } })
  })
  afterAll(() => withWorkflows.close())

  const trigger = (auth: { Authorization: string }, body: object) => request(withWorkflows.url).post('/v1/events/trigger').set(auth).send(body)

  it('answers an unknown name 422 workflow_not_found, changing nothing', async () => {
    const auth = freshTenant()
    const res = await trigger(auth, { name: 'nope', to: 'wf-1' })
    expect(res.status).toBe(422)
    expect(res.body).toMatchObject({ statusCode: 422, message: 'workflow_not_found', error: 'Unprocessable Entity' })
    await expectContract('EventsController_trigger', res, 'novu')
    expect((await request(withWorkflows.url).get('/v2/subscribers/wf-1').set(auth)).status).toBe(404)
  })

  it('answers an inactive one 201 trigger_not_active, changing nothing; a known active one is processed', async () => {
    const auth = freshTenant()
    const paused = await trigger(auth, { name: 'paused', to: 'wf-2', transactionId: 'p-1' })
    expect(paused.status).toBe(201)
    expect(paused.body).toEqual({ acknowledged: true, status: 'trigger_not_active', transactionId: 'p-1' })
    expect((await request(withWorkflows.url).get('/v2/subscribers/wf-2').set(auth)).status).toBe(404)
    expect((await trigger(auth, { name: 'welcome', to: 'wf-2' })).body.status).toBe('processed')
    expect((await request(withWorkflows.url).get('/v2/subscribers/wf-2').set(auth)).status).toBe(200)
  })

  it('answers a bulk call’s unknown event as an error in its place, the others kept', async () => {
    const auth = freshTenant()
    const res = await request(withWorkflows.url)
      .post('/v1/events/trigger/bulk')
      .set(auth)
      .send({ events: [{ name: 'nope', to: 'wf-3', transactionId: 'b-1' }, { name: 'welcome', to: 'wf-4', transactionId: 'b-2' }] })
    expect(res.status).toBe(201)
    expect(res.body).toEqual([
      { acknowledged: true, status: 'error', error: ['workflow_not_found'] },
      { acknowledged: true, status: 'processed', transactionId: 'b-2' },
    ])
    expect((await request(withWorkflows.url).get('/v2/subscribers/wf-3').set(auth)).status).toBe(404)
    expect((await request(withWorkflows.url).get('/v2/subscribers/wf-4').set(auth)).status).toBe(200)
  })

  it('shows its workflows in GET /__admin/state, and a tenant without any shows none', async () => {
    expect((await readState(withWorkflows.url, freshTenant())).workflows).toEqual([
      { workflowId: 'welcome', name: 'Welcome', active: true },
      { workflowId: 'paused', name: 'Paused', active: false },
    ])
    expect(await readState(server.url, freshTenant())).not.toHaveProperty('workflows')
  })
})

describe('POST /v2/workflows', () => {
  it('keeps the workflow: from then on the tenant’s triggers are matched against its workflows', async () => {
    const auth = freshTenant()
    expect((await api().post('/v1/events/trigger').set(auth).send({ name: 'anything', to: 'x-1' })).status).toBe(201)
    const created = await api().post('/v2/workflows').set(auth).send({ name: 'Order shipped', workflowId: 'order-shipped', active: true, steps: [] })
    expect(created.status).toBe(201)
    await expectContract('WorkflowController_create', created, 'novu')
    expect((await readState(server.url, auth)).workflows).toEqual([{ workflowId: 'order-shipped', name: 'Order shipped', active: true }])
    expect((await api().post('/v1/events/trigger').set(auth).send({ name: 'anything', to: 'x-2' })).status).toBe(422)
    expect((await api().post('/v1/events/trigger').set(auth).send({ name: 'order-shipped', to: 'x-2' })).body.status).toBe('processed')
  })
})

describe('workflows through the control plane', () => {
  it('PUT /__admin/state gives a tenant workflows; a reset takes them away', async () => {
    const auth = freshTenant()
    const state = await readState(server.url, auth)
    const put = await api().put('/__admin/state').set(auth).send({ ...state, workflows: [{ workflowId: 'only-this', name: 'Only', active: true }] })
    expect(put.status).toBeLessThan(300)
    expect((await api().post('/v1/events/trigger').set(auth).send({ name: 'other', to: 'c-1' })).status).toBe(422)
    expect((await api().post('/__admin/reset').set(auth)).status).toBeLessThan(300)
    expect((await api().post('/v1/events/trigger').set(auth).send({ name: 'other', to: 'c-1' })).status).toBe(201)
  })
})
