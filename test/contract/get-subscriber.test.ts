import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { MockServer } from '../../src/app/create-mock-server.ts'
import { expectContract } from '../helpers/expect-contract.ts'
import { freshTenant, startTestServer } from '../helpers/start-test-server.ts'
import { ADA, ADA_ID, GRACE, INTEGRATIONS } from '../helpers/well-known.ts'

/** Every field of the interface's Subscriber but `__v`, which the live service's v2 mapper leaves out. */
const SUBSCRIBER_FIELDS = [
  '_id', 'firstName', 'lastName', 'email', 'phone', 'avatar', 'locale', 'channels', 'topics', 'isOnline',
  'lastOnlineAt', 'data', 'timezone', 'subscriberId', '_organizationId', '_environmentId', 'deleted',
  'createdAt', 'updatedAt',
].sort()
const HEX24 = /^[0-9a-f]{24}$/
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/

let server: MockServer
beforeAll(async () => {
  server = await startTestServer()
})
afterAll(() => server.close())

async function get(path: string, auth = freshTenant()) {
  const res = await request(server.url).get(path).set(auth)
  await expectContract('getSubscriber', res)
  return res
}

describe('GET /v2/subscribers/{subscriberId}', () => {
  it(`returns every field of the interface for ${ADA}`, async () => {
    const res = await get(`/v2/subscribers/${ADA}`)
    expect(res.status).toBe(200)
    expect(res.headers['content-type']).toMatch(/^application\/json/)
    expect(Object.keys(res.body).sort()).toEqual(SUBSCRIBER_FIELDS)
    expect(res.body).toMatchObject({
      _id: ADA_ID,
      subscriberId: ADA,
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: 'ada@example.com',
      deleted: false,
      topics: [],
    })
    for (const field of ['phone', 'avatar', 'locale', 'timezone']) expect(typeof res.body[field], field).toBe('string')
    expect(typeof res.body.isOnline).toBe('boolean')
    expect(res.body).not.toHaveProperty('__v')
    expect(res.body.data).toBeTypeOf('object')
    for (const field of ['createdAt', 'updatedAt', 'lastOnlineAt']) expect(res.body[field], field).toMatch(ISO)
    expect(res.body._organizationId).toMatch(HEX24)
    expect(res.body._environmentId).toMatch(HEX24)
    expect(res.body._id).not.toBe(res.body.subscriberId)
  })

  it(`returns the seeded channels of ${ADA}`, async () => {
    const res = await get(`/v2/subscribers/${ADA}`)
    expect(res.status).toBe(200)
    expect(res.body.channels).toEqual([
      { providerId: 'fcm', _integrationId: INTEGRATIONS.fcm, credentials: { deviceTokens: ['fcm-token-ada-1'] } },
      {
        providerId: 'slack',
        _integrationId: INTEGRATIONS.slack,
        credentials: { webhookUrl: expect.stringMatching(/^https:\/\//) },
      },
    ])
  })

  it(`returns ${GRACE} with an empty channels array`, async () => {
    const res = await get(`/v2/subscribers/${GRACE}`)
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ subscriberId: GRACE, firstName: 'Grace', lastName: 'Hopper', email: 'grace@example.com', channels: [] })
    expect(Object.keys(res.body).sort()).toEqual(SUBSCRIBER_FIELDS)
  })

  it('never sends null for a field it has no value for', async () => {
    for (const id of [ADA, GRACE]) {
      const res = await get(`/v2/subscribers/${id}`)
      expect(res.status).toBe(200)
      const nulls = Object.entries(res.body as Record<string, unknown>).filter(([, value]) => value === null)
      expect(nulls, id).toEqual([])
    }
  })

  it.each([
    ['nobody', 'nobody'],
    ['demo-subscriber-3', 'demo-subscriber-3'],
    ['DEMO-SUBSCRIBER-1', 'DEMO-SUBSCRIBER-1'],
    ['no%20body', 'no body'],
  ])('answers 404 for the unknown subscriber %s', async (sent, decoded) => {
    const res = await get(`/v2/subscribers/${sent}`)
    expect(res.status).toBe(404)
    expect(res.body.statusCode).toBe(404)
    expect(res.body.message).toBe(`Subscriber: ${decoded} was not found`)
    expect(res.body.path).toBe(`/v2/subscribers/${sent}`)
    expect(Number.isNaN(Date.parse(res.body.timestamp))).toBe(false)
  })

  it('answers the same subscriber, byte for byte, on repeated reads by the same key', async () => {
    const auth = freshTenant()
    const first = await get(`/v2/subscribers/${ADA}`, auth)
    const second = await get(`/v2/subscribers/${ADA}`, auth)
    expect(first.status).toBe(200)
    expect(second.text).toBe(first.text)
  })

  it('stamps the same tenant ids on every record of one key', async () => {
    const auth = freshTenant()
    const ada = await get(`/v2/subscribers/${ADA}`, auth)
    const grace = await get(`/v2/subscribers/${GRACE}`, auth)
    expect(grace.body._organizationId).toBe(ada.body._organizationId)
    expect(grace.body._environmentId).toBe(ada.body._environmentId)
    expect(grace.body._id).not.toBe(ada.body._id)
  })

  it("shows each tenant the seeded subscriber with its own ids, and a change at once, however the reads alternate", async () => {
    const [one, two] = [freshTenant(), freshTenant()]
    const firstOne = await get(`/v2/subscribers/${ADA}`, one)
    const firstTwo = await get(`/v2/subscribers/${ADA}`, two)
    expect(firstTwo.body._environmentId).not.toBe(firstOne.body._environmentId)
    expect(firstTwo.body._organizationId).not.toBe(firstOne.body._organizationId)
    expect((await get(`/v2/subscribers/${ADA}`, one)).text).toBe(firstOne.text)
    const webhookUrl = 'https://hooks.slack.example.com/services/shown-again'
    const upsert = await request(server.url).patch(`/v1/subscribers/${ADA}/credentials`).set(one).send({ providerId: 'slack', credentials: { webhookUrl } })
    expect(upsert.status).toBe(200)
    const afterOne = await get(`/v2/subscribers/${ADA}`, one)
    const slack = (afterOne.body.channels as { providerId: string; credentials: { webhookUrl?: string } }[]).find((c) => c.providerId === 'slack')
    expect(slack?.credentials.webhookUrl).toBe(webhookUrl)
    expect(afterOne.body._environmentId).toBe(firstOne.body._environmentId)
    // The other tenant's subscriber is the seed's still.
    expect((await get(`/v2/subscribers/${ADA}`, two)).text).toBe(firstTwo.text)
  })

  it('serves the generated subscribers named by the seeded channel connections', async () => {
    const auth = freshTenant()
    const list = await request(server.url).get('/v1/channel-connections?limit=100').set(auth)
    expect(list.status).toBe(200)
    const ids = [...new Set((list.body.data as { subscriberId: string | null }[]).map((c) => c.subscriberId))]
    const generated = ids.filter((id): id is string => id !== null && !id.startsWith('demo-subscriber-'))
    expect(generated.length).toBeGreaterThan(0)
    for (const id of generated.slice(0, 10)) {
      const res = await get(`/v2/subscribers/${encodeURIComponent(id)}`, auth)
      expect(res.status, id).toBe(200)
      expect(res.body.subscriberId).toBe(id)
    }
  })
})
