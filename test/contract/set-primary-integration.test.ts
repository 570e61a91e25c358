import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { MockServer } from '../../src/app/create-mock-server.ts'
import type { StoredIntegration, TenantState } from '../../src/store/records.ts'
import { expectContract } from '../helpers/expect-contract.ts'
import { prng } from '../helpers/prng.ts'
import { readState } from '../helpers/read-state.ts'
import { freshTenant, startTestServer } from '../helpers/start-test-server.ts'
import { INTEGRATIONS } from '../helpers/well-known.ts'

type Auth = ReturnType<typeof freshTenant>

const SENDGRID = INTEGRATIONS.sendgrid
const MAILGUN = INTEGRATIONS.mailgun
const SES = INTEGRATIONS.ses
const TWILIO = INTEGRATIONS.twilio
const PLIVO = INTEGRATIONS.plivo

let server: MockServer
beforeAll(async () => {
  server = await startTestServer()
})
afterAll(() => server.close())

const setPrimary = (auth: Auth, id: string) => request(server.url).post(`/v1/integrations/${id}/set-primary`).set(auth)

const stateOf = (auth: Auth) => readState(server.url, auth)

const byId = (state: TenantState) => new Map(state.integrations.map((i) => [i._id, i]))

/** §2.3.3–4 applied to a copy of the integrations: what the store must hold afterwards. */
function expectedAfter(integrations: readonly StoredIntegration[], targetId: string): StoredIntegration[] {
  const target = integrations.find((i) => i._id === targetId)!
  if (target.primary) return integrations.map((i) => ({ ...i }))
  const activePeers = integrations
    .filter((i) => i._id !== targetId && i.channel === target.channel && i.active)
    .sort((a, b) => b.priority - a.priority || (a._id < b._id ? -1 : 1))
  const top = activePeers.length + 1
  const rank = new Map(activePeers.map((peer, index) => [peer._id, top - 1 - index]))
  return integrations.map((i) => {
    if (i._id === targetId) return { ...i, primary: true, active: true, conditions: [], priority: top }
    if (i.channel !== target.channel) return { ...i }
    return { ...i, primary: false, priority: rank.get(i._id) ?? i.priority }
  })
}

describe('POST /v1/integrations/{integrationId}/set-primary', () => {
  it('answers 200 with the Integration, credentials hidden, primary, active and without conditions', async () => {
    const auth = freshTenant()
    const res = await setPrimary(auth, MAILGUN)
    expect(res.status).toBe(200)
    await expectContract('setPrimaryIntegration', res)
    expect(res.body).toMatchObject({ _id: MAILGUN, channel: 'email', providerId: 'mailgun', identifier: 'mailgun' })
    expect(res.body.credentials).toEqual({})
    expect(res.body.primary).toBe(true)
    expect(res.body.active).toBe(true)
    expect(res.body.conditions).toEqual([])
    expect(res.body).not.toHaveProperty('priority')
    expect(res.body).not.toHaveProperty('createdAt')
  })

  it('moves the primary from sendgrid to mailgun and reorders the priorities', async () => {
    const auth = freshTenant()
    const before = await stateOf(auth)
    expect(byId(before).get(SENDGRID)!.primary).toBe(true)
    const res = await setPrimary(auth, MAILGUN)
    expect(res.status).toBe(200)
    await expectContract('setPrimaryIntegration', res)
    const after = byId(await stateOf(auth))
    expect(after.get(MAILGUN)).toMatchObject({ primary: true, active: true, priority: 2 })
    expect(after.get(SENDGRID)).toMatchObject({ primary: false, active: true, priority: 1 })
    expect(after.get(SES)).toMatchObject({ primary: false, active: false, priority: byId(before).get(SES)!.priority })
    expect([...after.values()]).toEqual(expectedAfter(before.integrations, MAILGUN))
  })

  it('activates an inactive integration set as primary and ranks it above the active ones', async () => {
    const auth = freshTenant()
    const before = await stateOf(auth)
    expect(byId(before).get(SES)!.active).toBe(false)
    const res = await setPrimary(auth, SES)
    expect(res.status).toBe(200)
    await expectContract('setPrimaryIntegration', res)
    expect(res.body).toMatchObject({ _id: SES, primary: true, active: true, conditions: [], credentials: {} })
    const after = byId(await stateOf(auth))
    expect(after.get(SES)).toMatchObject({ primary: true, active: true, priority: 3 })
    expect(after.get(SENDGRID)).toMatchObject({ primary: false, priority: 2 })
    expect(after.get(MAILGUN)).toMatchObject({ primary: false, priority: 1 })
    expect([...after.values()]).toEqual(expectedAfter(before.integrations, SES))
  })

  it.each([
    ['sendgrid', SENDGRID],
    ['twilio', TWILIO],
  ])('returns the already primary %s unchanged and changes nothing', async (_name, id) => {
    const auth = freshTenant()
    const before = await stateOf(auth)
    const res = await setPrimary(auth, id)
    expect(res.status).toBe(200)
    await expectContract('setPrimaryIntegration', res)
    const stored = byId(before).get(id)!
    expect(res.body).toMatchObject({ _id: id, primary: true, active: stored.active, conditions: stored.conditions, credentials: {} })
    expect(await stateOf(auth)).toEqual(before)
  })

  it.each([
    ['chat', INTEGRATIONS.slack],
    ['push', INTEGRATIONS.fcm],
    ['push', INTEGRATIONS.apns],
    ['in_app', INTEGRATIONS.novu],
  ])('answers 400 for a %s integration (%s) and changes nothing', async (channel, id) => {
    const auth = freshTenant()
    const before = await stateOf(auth)
    const res = await setPrimary(auth, id)
    expect(res.status).toBe(400)
    await expectContract('setPrimaryIntegration', res)
    expect(res.body.message).toBe(`Channel ${channel} does not support primary`)
    expect(await stateOf(auth)).toEqual(before)
  })

  it.each(['xyz', '64f10000000000000000000', '64f1000000000000000000011', '64f10000000000000000000g'])(
    'answers 422 when the id %j is not 24 hex characters',
    async (id) => {
      const res = await setPrimary(freshTenant(), id)
      expect(res.status).toBe(422)
      await expectContract('setPrimaryIntegration', res)
      expect(res.body.message).toBe('Validation Error')
      expect(res.body.errors.integrationId.messages).toEqual(['integrationId must be a mongodb id'])
    },
  )

  it.each(['64f1000000000000000000ff', 'aaaaaaaaaaaaaaaaaaaaaaaa'])('answers 404 for the unknown id %s', async (id) => {
    const res = await setPrimary(freshTenant(), id)
    expect(res.status).toBe(404)
    await expectContract('setPrimaryIntegration', res)
    expect(res.body.message).toBe(`Integration with id ${id} not found`)
  })

  it.each([
    ['a JSON object', 'application/json', JSON.stringify({ primary: false, active: false, channel: 'sms', conditions: [{}] })],
    ['a JSON array', 'application/json', '[1,2]'],
    ['plain text', 'text/plain', 'make it primary'],
  ])('ignores a body sent as %s', async (_kind, type, body) => {
    const plain = freshTenant()
    const withBody = freshTenant()
    const expected = await setPrimary(plain, MAILGUN)
    const res = await setPrimary(withBody, MAILGUN).set('Content-Type', type).send(body)
    expect(res.status).toBe(200)
    await expectContract('setPrimaryIntegration', res)
    const { _organizationId: _o1, _environmentId: _e1, ...got } = res.body
    const { _organizationId: _o2, _environmentId: _e2, ...want } = expected.body
    expect(got).toEqual(want)
    expect((await stateOf(withBody)).integrations).toEqual((await stateOf(plain)).integrations)
  })

  it('keeps exactly one active primary per channel over a random sequence of 30 calls', async () => {
    const auth = freshTenant()
    let expected = (await stateOf(auth)).integrations
    const random = prng(20250101)
    const candidates = [SENDGRID, MAILGUN, SES, TWILIO, PLIVO]
    const sequence = Array.from({ length: 30 }, () => candidates[Math.floor(random() * candidates.length)]!)
    for (const [step, id] of sequence.entries()) {
      const res = await setPrimary(auth, id)
      expect(res.status, `step ${step}: ${id}`).toBe(200)
      await expectContract('setPrimaryIntegration', res)
      expect(res.body).toMatchObject({ _id: id, primary: true, active: true })
      expected = expectedAfter(expected, id)
      const state = await stateOf(auth)
      expect(state.integrations, `step ${step}: ${sequence.slice(0, step + 1).join(' ')}`).toEqual(expected)
      for (const channel of ['email', 'sms']) {
        const primaries = state.integrations.filter((i) => i.channel === channel && i.primary)
        expect(primaries.map((i) => i._id), `${channel} after step ${step}`).toHaveLength(1)
        expect(primaries[0]!.active).toBe(true)
      }
    }
  })
})
