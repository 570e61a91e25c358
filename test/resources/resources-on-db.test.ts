// The resources of §11 on --db: what their operations wrote (an integration created and soft-deleted, a
// connection created, another deleted, a message deleted) is what a restarted server holds.
import request from 'supertest'
import { describe, expect, it } from 'vitest'
import { readState } from '../helpers/read-state.ts'
import { freshTenant, startTestServer } from '../helpers/start-test-server.ts'
import { ADA, adaMessage, INTEGRATIONS } from '../helpers/well-known.ts'
import { dbFile } from '../persistence/helpers.ts'

describe('§11 resources on --db', () => {
  it('resume after a restart, the deleted integration flagged, the removed records gone', async () => {
    const db = dbFile()
    const auth = freshTenant()
    const first = await startTestServer({ db })
    const created = await request(first.url).post('/v1/integrations').set(auth).send({ providerId: 'resend', active: true })
    expect(created.status).toBe(201)
    const kept = await request(first.url).post('/v1/integrations').set(auth).send({ providerId: 'postmark', identifier: 'kept' })
    expect((await request(first.url).delete(`/v1/integrations/${created.body._id}`).set(auth)).status).toBe(200)
    expect((await request(first.url).post('/v1/channel-connections').set(auth).send({ integrationIdentifier: 'slack', subscriberId: ADA, identifier: 'kept-connection', workspace: { id: 'T' }, auth: { accessToken: 'a' } })).status).toBe(201)
    const seeded = (await request(first.url).get('/v1/channel-connections?limit=1&orderDirection=ASC').set(auth)).body.data[0].identifier as string
    expect((await request(first.url).delete(`/v1/channel-connections/${seeded}`).set(auth)).status).toBe(204)
    expect((await request(first.url).delete(`/v1/messages/${adaMessage(2)}`).set(auth)).status).toBe(200)
    const written = await readState(first.url, auth)
    await first.close()

    const second = await startTestServer({ db })
    try {
      expect(await readState(second.url, auth)).toEqual(written)
      const listed = (await request(second.url).get('/v1/integrations').set(auth)).body.map((i: { _id: string }) => i._id)
      expect(listed).toEqual([...Object.values(INTEGRATIONS), kept.body._id])
      expect(written.integrations.find((i) => i._id === created.body._id)).toMatchObject({ deleted: true })
      expect((await request(second.url).get('/v1/channel-connections/kept-connection').set(auth)).status).toBe(200)
      expect((await request(second.url).get(`/v1/channel-connections/${seeded}`).set(auth)).status).toBe(404)
      expect(written.messages.map((m) => m._id)).not.toContain(adaMessage(2))
    } finally {
      await second.close()
    }
  })
})
