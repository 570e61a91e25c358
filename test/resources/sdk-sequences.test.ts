// The sequences through the official SDK @novu/api 3.19.1 (docs/behaviour.md §11): each call accepted
// by the SDK's own response checks, with the state the HTTP tests see.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { MockServer } from '../../src/app/create-mock-server.ts'
import { startTestServer } from '../helpers/start-test-server.ts'
import { ADA, GRACE, adaMessage } from '../helpers/well-known.ts'
import { sdkClient } from '../sdk/support.ts'

describe.each([
  ['bare', false],
  ['enveloped', true],
] as const)('through the SDK, %s', (_name, envelope) => {
  let server: MockServer
  beforeAll(async () => {
    server = await startTestServer({ envelope })
  })
  afterAll(() => server.close())

  it('an active email integration: not primary, made primary, deleted, no primary left', async () => {
    const { novu } = sdkClient(server.url)
    const created = (await novu.integrations.create({ providerId: 'resend', active: true })).result
    expect(created).toMatchObject({ name: 'Resend', channel: 'email', primary: false, active: true })
    const primary = (await novu.integrations.setAsPrimary(created.id!)).result
    expect(primary).toMatchObject({ id: created.id, primary: true })
    const emailPrimaries = (await novu.integrations.list()).result.filter((i) => i.channel === 'email' && i.primary)
    expect(emailPrimaries.map((i) => i.id)).toEqual([created.id])
    const left = (await novu.integrations.delete(created.id!)).result
    expect(left.map((i) => i.id)).not.toContain(created.id)
    expect((await novu.integrations.list()).result.filter((i) => i.channel === 'email' && i.primary)).toEqual([])
    expect((await novu.integrations.listActive()).result.map((i) => i.id)).not.toContain(created.id)
  })

  it('a channel connection for a seeded integration and subscriber: listed by subscriber, deleted, listed no more', async () => {
    const { novu } = sdkClient(server.url)
    const created = (await novu.channelConnections.create({ integrationIdentifier: 'slack', subscriberId: GRACE, workspace: { id: 'T1' }, auth: { accessToken: 'xoxb' } })).result
    expect(created).toMatchObject({ integrationIdentifier: 'slack', subscriberId: GRACE, providerId: 'slack' })
    expect((await novu.channelConnections.retrieve(created.identifier)).result.identifier).toBe(created.identifier)
    const listed = async () => (await novu.channelConnections.list({ subscriberId: GRACE, limit: 100 })).result.data.map((c) => c.identifier)
    expect(await listed()).toContain(created.identifier)
    await novu.channelConnections.delete(created.identifier)
    expect(await listed()).not.toContain(created.identifier)
  })

  it('messages: listed, one deleted, all marked read with the count', async () => {
    const { novu } = sdkClient(server.url)
    const page = (await novu.messages.retrieve({ subscriberId: ADA, limit: 5 })).result
    expect(page).toMatchObject({ page: 0, pageSize: 5, totalCount: 10, hasMore: true })
    expect((await novu.messages.delete(adaMessage(1))).result).toEqual({ acknowledged: true, status: 'deleted' })
    expect((await novu.subscribers.messages.markAll({ markAs: 'read' }, ADA)).result).toBe(7)
    expect((await novu.messages.retrieve({ subscriberId: ADA, limit: 100 })).result.data.every((m) => m.read)).toBe(true)
  })
})
