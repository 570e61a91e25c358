import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { MockServer } from '../../src/app/create-mock-server.ts'
import { expectErrorDto } from '../helpers/expect-contract.ts'
import { runCli } from '../helpers/cli.ts'
import { rawRequest } from '../helpers/raw-request.ts'
import { startTestServer } from '../helpers/start-test-server.ts'

const KEY = 'host-check-key'
const AUTH = { Authorization: `ApiKey ${KEY}` }

describe('the Host check on a loopback bind (docs/behaviour.md §1.7)', () => {
  let mock: MockServer
  beforeAll(async () => {
    mock = await startTestServer({ allowedHosts: ['mock.test', '.dev.example'] })
  })
  afterAll(() => mock.close())

  it.each(['localhost', 'localhost:4010', 'app.localhost:4010', '127.0.0.1', '127.0.0.1:4010', '127.8.9.10', '[::1]:4010', 'LOCALHOST', 'mock.test:80', 'a.dev.example', '127.1', '0x7f.0.0.1:4010', '[0:0:0:0:0:0:0:1]:4010', '[::ffff:127.0.0.1]'])(
    'answers Host %s',
    async (host) => {
      const answer = await rawRequest(`${mock.url}/v2/subscribers/demo-subscriber-1`, { headers: { ...AUTH, Host: host } })
      expect(answer.status).toBe(200)
    },
  )

  it.each(['evil.example', 'evil.example:4010', '127.0.0.1.evil.example', 'localhost.evil.example', 'mock.test.evil.example', '[::2]', 'evil.example@127.0.0.1', '[::127.0.0.1]', '128.0.0.1'])(
    'refuses Host %s with a 403 on every route, before the route and authentication',
    async (host) => {
      for (const [method, path, headers] of [
        ['GET', '/__admin/tenants', {}],
        ['POST', '/__admin/reset?all=true', AUTH],
        ['GET', '/v2/subscribers/demo-subscriber-1', AUTH],
        ['GET', '/v2/subscribers/demo-subscriber-1', {}],
        ['GET', '/no/such/route', {}],
        ['GET', '/docs', {}],
        ['GET', '/__admin/ui', {}],
        ['GET', '/', {}],
      ] as const) {
        const answer = await rawRequest(`${mock.url}${path}`, { method, headers: { ...headers, Host: host } })
        expect(answer.status, `${method} ${path}`).toBe(403)
        await expectErrorDto(answer.body)
        expect((answer.body as { message: string }).message).toContain(`"${host}"`)
        expect((answer.body as { message: string }).message).toContain('--allowed-hosts')
      }
    },
  )

  it('changes and journals nothing for a refused host', async () => {
    const AUTH = { Authorization: 'ApiKey host-check-untouched' }
    const changed = await rawRequest(`${mock.url}/v1/subscribers/demo-subscriber-1/messages/mark-as`, {
      method: 'POST',
      headers: { ...AUTH, Host: 'evil.example', 'Content-Type': 'application/json' },
      body: JSON.stringify({ messageId: '64f200000000000000000001', markAs: 'read' }),
    })
    expect(changed.status).toBe(403)
    const journal = await rawRequest(`${mock.url}/__admin/requests`, { headers: AUTH })
    expect(journal.status).toBe(200)
    expect(journal.body).toEqual({ requests: [] })
    const state = await rawRequest(`${mock.url}/__admin/state`, { headers: AUTH })
    const message = (state.body as { messages: { _id: string; read: boolean }[] }).messages.find((m) => m._id === '64f200000000000000000001')
    expect(message?.read).toBe(false)
  })

  it('serves the pages at localhost and 127.0.0.1', async () => {
    for (const host of ['localhost:4010', '127.0.0.1:4010']) {
      for (const path of ['/', '/docs', '/__admin/ui', '/__admin/health']) {
        expect((await rawRequest(`${mock.url}${path}`, { headers: { Host: host } })).status, `${host} ${path}`).toBe(200)
      }
    }
  })
})

describe('the Host check elsewhere', () => {
  it('is off with --allowed-hosts all', async () => {
    const mock = await startTestServer({ allowedHosts: 'all' })
    try {
      expect((await rawRequest(`${mock.url}/__admin/health`, { headers: { Host: 'evil.example' } })).status).toBe(200)
    } finally {
      await mock.close()
    }
  })

  it('is off on a non-loopback bind unless --allowed-hosts is given', async () => {
    const open = await startTestServer({ host: '0.0.0.0' })
    const checked = await startTestServer({ host: '0.0.0.0', allowedHosts: ['mock.test'] })
    try {
      const at = (server: MockServer) => `http://127.0.0.1:${server.port}/__admin/health`
      expect((await rawRequest(at(open), { headers: { Host: 'anything.example' } })).status).toBe(200)
      expect((await rawRequest(at(checked), { headers: { Host: 'anything.example' } })).status).toBe(403)
      expect((await rawRequest(at(checked), { headers: { Host: 'mock.test:4010' } })).status).toBe(200)
      expect((await rawRequest(at(checked), { headers: { Host: 'localhost' } })).status).toBe(200)
    } finally {
      await Promise.all([open.close(), checked.close()])
    }
  })
})

describe('every spelling of a loopback bind is one (docs/behaviour.md §1.7)', () => {
  it.each([
    ['0:0:0:0:0:0:0:1', '[::1]'],
    ['::ffff:127.0.0.1', '127.0.0.1'],
    ['127.1', '127.0.0.1'],
  ])('bound to %s, refuses Host evil.example and keeps /__admin open', async (bind, reach) => {
    const mock = await startTestServer({ host: bind })
    try {
      const at = (path: string) => `http://${reach}:${mock.port}${path}`
      const refused = await rawRequest(at('/v2/subscribers/demo-subscriber-1'), { headers: { ...AUTH, Host: 'evil.example' } })
      expect(refused.status).toBe(403)
      await expectErrorDto(refused.body)
      expect((await rawRequest(at('/v2/subscribers/demo-subscriber-1'), { headers: { ...AUTH, Host: `localhost:${mock.port}` } })).status).toBe(200)
      expect((await rawRequest(at('/__admin/state'), { headers: { ...AUTH, Host: `localhost:${mock.port}` } })).status).toBe(200)
    } finally {
      await mock.close()
    }
  })
})

describe('--allowed-hosts takes host names, .suffix entries and all (docs/cli.md)', () => {
  it.each(['.', ':5101', '[::1]x', 'mock.test:4010'])('refuses %s: a usage error, exit 2, one line', async (entry) => {
    const run = await runCli(['--port', '0', '--allowed-hosts', `mock.test,${entry}`])
    expect(run.code).toBe(2)
    expect(run.stderr.trim().split('\n')).toHaveLength(1)
    expect(run.stderr).toContain(`"${entry}"`)
    expect(run.stdout).toBe('')
  })
})
