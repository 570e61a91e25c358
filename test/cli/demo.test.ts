import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { helpText, parseCli, UsageError } from '../../src/cli/parse-cli.ts'
import type { ServerConfig } from '../../src/app/config.ts'
import type { MockServer } from '../../src/app/create-mock-server.ts'
import type { StoredSubscriber, TenantState } from '../../src/store/records.ts'
import { runCli, startCli } from '../helpers/cli.ts'
import { expectContract } from '../helpers/expect-contract.ts'
import { readState } from '../helpers/read-state.ts'
import { freshTenant, startTestServer } from '../helpers/start-test-server.ts'
import { ADA, adaMessage, GRACE } from '../helpers/well-known.ts'

const tempDir = (config?: unknown) => {
  const dir = mkdtempSync(join(tmpdir(), 'novu-mock-demo-'))
  if (config !== undefined) writeFileSync(join(dir, 'novu-mock.config.json'), JSON.stringify(config))
  return dir
}

function startConfig(argv: string[], env: NodeJS.ProcessEnv = {}, cwd = tempDir()): ServerConfig {
  const command = parseCli(argv, env, cwd)
  if (command.kind !== 'start') throw new Error(`expected start, got ${command.kind}`)
  return command.config
}

/** A subscriber as GET /v2/subscribers answers: the stored record with the tenant's ids. */
const presented = (stored: StoredSubscriber) => ({ ...stored, _organizationId: expect.any(String), _environmentId: expect.any(String) })

describe('--demo, NOVU_MOCK_DEMO and "demo" in novu-mock.config.json', () => {
  it('turn demo mode on, with the demo volumes unless a volume flag says otherwise', () => {
    expect(startConfig([])).toMatchObject({ demo: false, volumes: { subscribers: 50, channelConnections: 120 } })
    expect(startConfig(['--demo'])).toMatchObject({ demo: true, volumes: { subscribers: 300, channelConnections: 600 } })
    expect(startConfig([], { NOVU_MOCK_DEMO: 'true' }).demo).toBe(true)
    expect(startConfig([], { NOVU_MOCK_DEMO: '1' }).demo).toBe(true)
    expect(startConfig([], {}, tempDir({ demo: true })).demo).toBe(true)
    expect(startConfig(['--demo', '--subscribers', '20'], { NOVU_MOCK_MESSAGES: '40' }).volumes).toEqual({ subscribers: 20, channelConnections: 600, messages: 40 })
    expect(startConfig(['--connections', '7'], {}, tempDir({ demo: true })).volumes).toEqual({ subscribers: 300, channelConnections: 7 })
  })

  it('refuses a config file whose "demo" is not a boolean', () => {
    expect(() => startConfig([], {}, tempDir({ demo: 'yes' }))).toThrow(UsageError)
    expect(() => startConfig([], {}, tempDir({ demo: 'yes' }))).toThrow('novu-mock.config.json: "demo" must be true or false, got "yes"')
  })

  it('is listed by --help with its variable', () => {
    expect(helpText()).toMatch(/^ {2}--demo +seed a lively, realistic data set.*\n +default: off; env NOVU_MOCK_DEMO$/m)
  })
})

describe('novu-mock --demo, through HTTP', () => {
  let cli: Awaited<ReturnType<typeof startCli>>
  let state: TenantState
  beforeAll(async () => {
    cli = await startCli(['--demo', '--port', '0', '--log-level', 'silent'])
    state = await readState(cli.url, freshTenant())
  })
  afterAll(() => cli.stop())

  it('serves a demo subscriber, within the contract', async () => {
    const subscriber = state.subscribers[2]!
    expect(subscriber).toMatchObject({ subscriberId: 'subscriber-0003', firstName: expect.any(String), avatar: expect.stringMatching(/^https:/), timezone: expect.any(String) })
    const res = await request(cli.url).get(`/v2/subscribers/${subscriber.subscriberId}`).set(freshTenant())
    expect(res.status).toBe(200)
    await expectContract('getSubscriber', res)
    const { __v: _version, ...v2 } = presented(subscriber)
    expect(res.body).toEqual(v2)
  })

  it('keeps the README examples working: the well-known records answer as without --demo', async () => {
    const plain = await startTestServer()
    try {
      const paths = [`/v2/subscribers/${ADA}`, `/v2/subscribers/${GRACE}`]
      for (const path of paths) {
        const [demo, normal] = await Promise.all([request(cli.url).get(path).set(freshTenant()), request(plain.url).get(path).set(freshTenant())])
        expect(demo.status).toBe(200)
        expect({ ...demo.body, _organizationId: 0, _environmentId: 0 }).toEqual({ ...normal.body, _organizationId: 0, _environmentId: 0 })
      }
      const auth = freshTenant()
      const marked = await request(cli.url).post(`/v1/subscribers/${ADA}/messages/mark-as`).set(auth).send({ messageId: [adaMessage(1)], markAs: 'read' })
      expect(marked.status).toBe(201)
      await expectContract('markMessagesAs', marked)
    } finally {
      await plain.close()
    }
  })

  it('marks a demo subscriber’s messages, within the contract', async () => {
    const owner = state.subscribers[2]!
    const ids = state.messages.filter((m) => m._subscriberId === owner._id).map((m) => m._id)
    expect(ids.length).toBeGreaterThan(0)
    const res = await request(cli.url).post(`/v1/subscribers/${owner.subscriberId}/messages/mark-as`).set(freshTenant()).send({ messageId: ids, markAs: 'read' })
    expect(res.status).toBe(201)
    await expectContract('markMessagesAs', res)
    expect((res.body as { read: boolean; seen: boolean }[]).every((m) => m.read && m.seen)).toBe(true)
  })
})

describe('createMockServer({ demo: true })', () => {
  let server: MockServer
  beforeAll(async () => {
    server = await startTestServer({ demo: true })
  })
  afterAll(() => server.close())

  it('lists connections at a demo provider, each naming its integration', async () => {
    const res = await request(server.url).get('/v1/channel-connections?providerId=discord&limit=100').set(freshTenant())
    expect(res.status).toBe(200)
    await expectContract('listChannelConnections', res)
    expect(res.body.totalCount).toBeGreaterThan(0)
    expect((res.body.data as { integrationIdentifier: string }[]).every((c) => c.integrationIdentifier === 'discord')).toBe(true)
  })

  it('sets a demo email integration primary, leaving one primary on the channel', async () => {
    const auth = freshTenant()
    const postmark = server.app.locals.seed.integrations.find((i) => i.providerId === 'postmark')!
    const res = await request(server.url).post(`/v1/integrations/${postmark._id}/set-primary`).set(auth)
    expect(res.status).toBe(200)
    await expectContract('setPrimaryIntegration', res)
    const { integrations } = await readState(server.url, auth)
    expect(integrations.filter((i) => i.channel === 'email' && i.primary).map((i) => i._id)).toEqual([postmark._id])
  })

  it('upserts credentials at a demo provider through its integration', async () => {
    const auth = freshTenant()
    const res = await request(server.url)
      .patch(`/v1/subscribers/${GRACE}/credentials`)
      .set(auth)
      .send({ providerId: 'expo', credentials: { deviceTokens: ['ExponentPushToken[demo]'] } })
    expect(res.status).toBe(200)
    await expectContract('upsertSubscriberCredentials', res)
    const expo = (await request(server.url).get('/__admin/state').set(auth)).body.integrations.find((i: { identifier: string }) => i.identifier === 'expo')
    expect(res.body.channels).toEqual([{ providerId: 'expo', _integrationId: expo._id, credentials: { deviceTokens: ['ExponentPushToken[demo]'] } }])
  })
})

describe('novu-mock seed --demo', () => {
  it('writes the demo data set with the volumes asked for', async () => {
    const { code, stdout } = await runCli(['seed', '--demo', '--subscribers', '12', '--connections', '4'])
    expect(code).toBe(0)
    const state = JSON.parse(stdout) as TenantState
    expect([state.subscribers.length, state.integrations.length, state.channelConnections.length, state.messages.length]).toEqual([12, 18, 4, 13 + 8 * 10])
  })
})
