import request from 'supertest'
import { afterEach, describe, expect, it } from 'vitest'
import type { AppOptions } from '../../src/app/config.ts'
import type { MockServer } from '../../src/app/create-mock-server.ts'
import { expectContract } from '../helpers/expect-contract.ts'
import { readState } from '../helpers/read-state.ts'
import { freshTenant, startTestServer } from '../helpers/start-test-server.ts'
import { ADA } from '../helpers/well-known.ts'

type Auth = ReturnType<typeof freshTenant>

let server: MockServer | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
})

async function start(options: AppOptions = {}) {
  server = await startTestServer(options)
  return server.url
}

const keyOf = (auth: Auth) => auth.Authorization.slice('ApiKey '.length)
const read = (url: string, auth: Auth) => request(url).get(`/v2/subscribers/${ADA}`).set(auth)
const write = (url: string, auth: Auth) =>
  request(url).patch(`/v1/subscribers/${ADA}/credentials`).set(auth).send({ providerId: 'fcm', credentials: { deviceTokens: ['t'] } })

async function tenants(url: string) {
  const res = await request(url).get('/__admin/tenants')
  expect(res.status).toBe(200)
  await expectContract('listTenants', res, 'admin')
  return res.body.tenants as Array<{ apiKey: string; calls: number; kept: boolean; created: boolean }>
}

/** Every admin read a page makes of one tenant. */
async function lookAt(url: string, auth: Auth) {
  await readState(url, auth)
  for (const path of ['/__admin/snapshots', '/__admin/requests', '/__admin/faults', '/__admin/channel-connections?limit=5']) {
    expect((await request(url).get(path).set(auth)).status, path).toBe(200)
  }
}

describe('GET /__admin/tenants', () => {
  it('lists the tenants that answered calls or were created, with full keys, most recent first, and no Authorization', async () => {
    const url = await start()
    const [reader, writer] = [freshTenant(), freshTenant()]
    await read(url, reader).expect(200)
    await read(url, reader).expect(200)
    await write(url, writer).expect(200)
    await request(url).post('/__admin/tenants').set(freshTenant()).send({ apiKey: 'made-here' }).expect(201)
    expect(await tenants(url)).toEqual([
      { apiKey: 'made-here', calls: 0, kept: true, created: true },
      { apiKey: keyOf(writer), calls: 1, kept: true, created: false },
      { apiKey: keyOf(reader), calls: 2, kept: false, created: false },
    ])
  })

  it('leaves out a tenant that was only looked at through the admin API', async () => {
    const url = await start()
    const looked = freshTenant()
    await lookAt(url, looked)
    expect(await tenants(url)).toEqual([])
    await read(url, looked).expect(200)
    expect(await tenants(url)).toEqual([{ apiKey: keyOf(looked), calls: 1, kept: false, created: false }])
  })

  it('lists a tenant changed through the admin API as kept', async () => {
    const url = await start()
    const saved = freshTenant()
    await request(url).post('/__admin/snapshots').set(saved).send({ name: 'first' }).expect(201)
    expect(await tenants(url)).toEqual([{ apiKey: keyOf(saved), calls: 0, kept: true, created: false }])
  })
})

describe('looking at a tenant through the admin API (maxTenants: 2)', () => {
  it('never takes a place at the bound, so two writers still fit', async () => {
    const url = await start({ maxTenants: 2 })
    const [looked, writerA, writerB] = [freshTenant(), freshTenant(), freshTenant()]
    await lookAt(url, looked)
    await write(url, writerA).expect(200)
    await lookAt(url, looked)
    await write(url, writerB).expect(200)
    await lookAt(url, looked)
    expect((await tenants(url)).map((t) => t.apiKey).sort()).toEqual([keyOf(writerA), keyOf(writerB)].sort())
    // The looked-at tenant still reads as its seed, at the full bound, with no 503.
    expect((await readState(url, looked)).messages).toHaveLength(253)
  })

  it('leaves a tenant only read by the API droppable, however often it is looked at', async () => {
    const url = await start({ maxTenants: 2 })
    const [reader, writerA, writerB] = [freshTenant(), freshTenant(), freshTenant()]
    await read(url, reader).expect(200)
    await write(url, writerA).expect(200)
    await lookAt(url, reader)
    await write(url, writerB).expect(200)
    expect((await tenants(url)).map((t) => t.apiKey)).toEqual([keyOf(writerB), keyOf(writerA)])
  })

  it('answers an admin change to a new tenant at the full bound by releasing one, not 503', async () => {
    const url = await start({ maxTenants: 2 })
    await write(url, freshTenant()).expect(200)
    await write(url, freshTenant()).expect(200)
    const state = await readState(url, freshTenant())
    const res = await request(url).put('/__admin/state').set(freshTenant()).send(state)
    expect(res.status).toBe(200)
    await expectContract('putState', res, 'admin')
    expect((await request(url).get('/__admin/tenants')).body.released).toBe(1)
  })
})

describe('GET /__admin/channel-connections', () => {
  it.each([
    '',
    '?limit=3',
    '?channel=push&limit=5&orderDirection=ASC',
    `?subscriberId=${ADA}`,
    '?providerId=slack&orderBy=updatedAt',
  ])('answers the page the API answers for %j, without a journal entry', async (query) => {
    const url = await start()
    const auth = freshTenant()
    const admin = await request(url).get(`/__admin/channel-connections${query}`).set(auth)
    expect(admin.status).toBe(200)
    await expectContract('pageChannelConnections', admin, 'admin')
    expect((await request(url).get('/__admin/requests').set(auth)).body.requests).toEqual([])
    const api = await request(url).get(`/v1/channel-connections${query}`).set(auth)
    expect(admin.body).toEqual(api.body)
    expect(admin.body.data.length).toBeGreaterThan(0)
  })

  it('follows the cursor the page gives, as the API does', async () => {
    const url = await start()
    const auth = freshTenant()
    const first = await request(url).get('/__admin/channel-connections?limit=2').set(auth)
    const next = await request(url).get(`/__admin/channel-connections?limit=2&after=${first.body.next}`).set(auth)
    const api = await request(url).get(`/v1/channel-connections?limit=2&after=${first.body.next}`).set(auth)
    expect(next.body).toEqual(api.body)
  })

  it('refuses what the API refuses, with the same status', async () => {
    const url = await start()
    const res = await request(url).get('/__admin/channel-connections?channel=fax').set(freshTenant())
    expect(res.status).toBe(422)
    await expectContract('pageChannelConnections', res, 'admin')
  })
})
