import { once } from 'node:events'
import { createServer } from 'node:net'
import type { AddressInfo } from 'node:net'
import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { MockServer } from '../../src/app/create-app.ts'
import { createLogger } from '../../src/log/logger.ts'
import { expectContract } from '../helpers/expect-contract.ts'
import { runCli } from '../helpers/cli.ts'
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
