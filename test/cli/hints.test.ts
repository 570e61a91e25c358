import { once } from 'node:events'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createServer } from 'node:net'
import type { AddressInfo } from 'node:net'
import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { MockServer } from '../../src/app/create-mock-server.ts'
import { createLogger } from '../../src/log/logger.ts'
import { expectContract } from '../helpers/expect-contract.ts'
import { runCli, startCli } from '../helpers/cli.ts'
import { readState } from '../helpers/read-state.ts'
import { startTestServer } from '../helpers/start-test-server.ts'

describe('errors that say what to fix', () => {
  it('a port in use suggests --port', async () => {
    const blocker = createServer().listen(0, '127.0.0.1')
    await once(blocker, 'listening')
    const { port } = blocker.address() as AddressInfo
    const { code, stderr } = await runCli(['--port', String(port)]).finally(() => blocker.close())
    expect(code).toBe(1)
    expect(stderr.trim().split('\n')).toHaveLength(1)
    expect(stderr).toMatch(/the port is already in use .*give another with --port <n>/)
  })

  it.each([
    ['without --api-key', ['verify', '--target', 'http://127.0.0.1:9'], 'verify needs --api-key <key>'],
    ['without --target', ['verify', '--api-key', 'k'], 'verify needs --target <url>'],
  ])('verify %s points to verify --help', async (_case, args, message) => {
    const { code, stderr } = await runCli(args)
    expect(code).toBe(2)
    expect(stderr).toBe(`novu-mock: ${message}. Run novu-mock verify --help for the options.\n`)
  })

  it('a mistake outside verify still points to --help', async () => {
    const { code, stderr } = await runCli(['--seed', 'abc'])
    expect(code).toBe(2)
    expect(stderr).toMatch(/\. Run novu-mock --help for the options\.\n$/)
  })
})

describe('`Authorization: ApiKey` with no key', () => {
  const lines: string[] = []
  let server: MockServer
  beforeAll(async () => {
    server = await startTestServer({ logger: createLogger('info', { write: (line: string) => void lines.push(line) }) })
  })
  afterAll(() => server.close())

  it("keeps the live service's bare 401 and puts the hint in the server's log", async () => {
    const res = await request(server.url).get('/v2/subscribers/demo-subscriber-1').set('Authorization', 'ApiKey')
    expect(res.status).toBe(401)
    expect(res.body.message).toBe('Unauthorized')
    await expectContract('getSubscriber', res)
    await expect.poll(() => lines.some((line) => line.includes('no key after \\"ApiKey\\"'))).toBe(true)
    const hint = JSON.parse(lines.find((line) => line.includes('no key after'))!) as Record<string, unknown>
    expect(hint).toMatchObject({ level: 30, msg: '401 Unauthorized: no key after "ApiKey": send Authorization: ApiKey <key>', path: '/v2/subscribers/demo-subscriber-1' })
  })
})

describe('validate-fixtures on a file that seed wrote', () => {
  it('reads it as the whole state (replace) and says why; a folder still merges', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'novu-mock-hints-'))
    const out = join(dir, 'state.json')
    expect((await runCli(['seed', '--subscribers', '5', '--connections', '3', '--messages', '20', '--out', out])).code).toBe(0)
    const checked = await runCli(['validate-fixtures', out])
    expect(checked).toMatchObject({ code: 0, stderr: '' })
    expect(checked.stdout).toBe(
      `OK ${out} (state.json): starts with 5 subscribers, 9 integrations, 3 channel connections, 20 messages (replace: a state file is the whole state; --fixtures-mode merge adds it to the seed)\n`,
    )
    expect((await runCli(['validate-fixtures', out, '--fixtures-mode', 'merge'])).stdout).toMatch(/starts with 50 subscribers.*\(merge\)\n$/)
    const served = await startCli(['--port', '0', '--log-level', 'silent', '--fixtures', out])
    try {
      const state = await readState(served.url, { Authorization: 'ApiKey hints-fixtures' })
      expect(state.subscribers).toHaveLength(5)
    } finally {
      await served.stop()
    }
  })
})
