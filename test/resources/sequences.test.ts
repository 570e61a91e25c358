// The sequences of a user's app (issue 56, "Done when" 1 and 3), over HTTP and through the official SDK,
// in memory, on --db and on --redis: each call sees what the calls before it did.
import { ErrorDto } from '@novu/api/models/errors/index.js'
import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AppOptions } from '../../src/app/config.ts'
import type { MockServer } from '../../src/app/create-mock-server.ts'
import { dbFile } from '../persistence/helpers.ts'
import { readState } from '../helpers/read-state.ts'
import { redisTestsSkipped, startRedis, type RedisServer } from '../helpers/redis-server.ts'
import { freshTenant, startTestServer } from '../helpers/start-test-server.ts'
import { ADA, ADA_ID } from '../helpers/well-known.ts'
import { sdkClient, sdkError } from '../sdk/support.ts'

type Auth = { Authorization: string }
const redisSkipped = redisTestsSkipped() !== undefined
let redis: RedisServer | undefined

const channelsOf = (subscriber: { channels?: { providerId: string; credentials: { deviceTokens?: string[] } }[] }) =>
  Object.fromEntries((subscriber.channels ?? []).map((c) => [c.providerId, c.credentials.deviceTokens]))

describe.each([
  ['in memory', false, () => ({})],
  ['on --db', false, () => ({ db: dbFile() })],
  ['on --redis', redisSkipped, () => ({ redis: redis!.url })],
] as const)('the issue’s sequences %s', (name, skipped, options: () => AppOptions) => {
  let server: MockServer
  beforeAll(async () => {
    if (skipped) return
    if (name === 'on --redis') redis = await startRedis()
    server = await startTestServer(options())
  })
  afterAll(async () => {
    await server?.close()
    if (name === 'on --redis') await redis?.stop()
  })

  it.skipIf(skipped)('create → get → append fcm → PUT replaces → DELETE fcm → delete → 404, messages gone → create again, over HTTP', async () => {
    const auth: Auth = freshTenant()
    const api = () => request(server.url)
    const credentials = `/v1/subscribers/${ADA}/credentials`
    expect((await api().post('/v2/subscribers').set(auth).send({ subscriberId: ADA, firstName: 'Ada' })).status).toBe(201)
    expect((await api().get(`/v2/subscribers/${ADA}`).set(auth)).body._id).toBe(ADA_ID)
    expect((await api().patch(credentials).set(auth).send({ providerId: 'fcm', credentials: { deviceTokens: ['t-2'] } })).status).toBe(200)
    expect(channelsOf((await api().get(`/v2/subscribers/${ADA}`).set(auth)).body).fcm).toEqual(['fcm-token-ada-1', 't-2'])
    expect((await api().put(credentials).set(auth).send({ providerId: 'fcm', credentials: { deviceTokens: ['t-3'] } })).status).toBe(200)
    expect(channelsOf((await api().get(`/v2/subscribers/${ADA}`).set(auth)).body).fcm).toEqual(['t-3'])
    expect((await api().delete(`${credentials}/fcm`).set(auth)).status).toBe(204)
    expect(channelsOf((await api().get(`/v2/subscribers/${ADA}`).set(auth)).body)).not.toHaveProperty('fcm')
    expect((await readState(server.url, auth)).messages.some((m) => m._subscriberId === ADA_ID)).toBe(true)
    expect((await api().delete(`/v2/subscribers/${ADA}`).set(auth)).status).toBe(200)
    expect((await api().get(`/v2/subscribers/${ADA}`).set(auth)).status).toBe(404)
    expect((await readState(server.url, auth)).messages.some((m) => m._subscriberId === ADA_ID)).toBe(false)
    const again = await api().post('/v2/subscribers').set(auth).send({ subscriberId: ADA })
    expect(again.status).toBe(201)
    expect(again.body._id).not.toBe(ADA_ID)
  })

  it.skipIf(skipped)('the same through the official SDK, on a subscriber of its own', async () => {
    const { novu } = sdkClient(server.url)
    const id = 'sdk-seq-1'
    const created = (await novu.subscribers.create({ subscriberId: id, email: 'seq@example.com' })).result
    expect((await novu.subscribers.retrieve(id)).result).toEqual(created)
    await novu.subscribers.credentials.append({ providerId: 'fcm', credentials: { deviceTokens: ['a', 'b'] } }, id)
    await novu.subscribers.credentials.update({ providerId: 'fcm', credentials: { deviceTokens: ['c'] } }, id)
    expect(channelsOf((await novu.subscribers.retrieve(id)).result as never).fcm).toEqual(['c'])
    await novu.subscribers.credentials.delete(id, 'fcm')
    expect(channelsOf((await novu.subscribers.retrieve(id)).result as never)).toEqual({})
    expect((await novu.subscribers.delete(id)).result).toEqual({ acknowledged: true, status: 'deleted' })
    await sdkError(novu.subscribers.retrieve(id), ErrorDto, 404)
    const again = (await novu.subscribers.create({ subscriberId: id })).result
    expect(again.id).not.toBe(created.id)
  })

  it.skipIf(skipped)('trigger to a new subscriber → GET answers it, over HTTP and through the SDK', async () => {
    const auth: Auth = freshTenant()
    const sent = await request(server.url).post('/v1/events/trigger').set(auth).send({ name: 'welcome', to: { subscriberId: 'new-1', email: 'n@example.com' } })
    expect(sent.status).toBe(201)
    expect((await request(server.url).get('/v2/subscribers/new-1').set(auth)).body).toMatchObject({ subscriberId: 'new-1', email: 'n@example.com' })
    const { novu } = sdkClient(server.url)
    expect((await novu.trigger({ workflowId: 'welcome', to: { subscriberId: 'new-1', email: 'n@example.com' } })).result.status).toBe('processed')
    expect((await novu.subscribers.retrieve('new-1')).result).toMatchObject({ subscriberId: 'new-1', email: 'n@example.com' })
  })
})
