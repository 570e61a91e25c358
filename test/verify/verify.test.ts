import { execFile } from 'node:child_process'
import { once } from 'node:events'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { MockServer } from '../../src/app/create-mock-server.ts'
import { loadContracts } from '../../src/app/create-state.ts'
import { formatReport } from '../../src/verify/format-report.ts'
import { verifyTarget, type VerifyOptions } from '../../src/verify/verify-target.ts'
import { freePort } from '../helpers/free-port.ts'
import { startTestServer } from '../helpers/start-test-server.ts'
import { ADA, adaMessage, INTEGRATIONS } from '../helpers/well-known.ts'

const options = (target: string, write = false): VerifyOptions => ({
  target,
  apiKey: `verify-${crypto.randomUUID()}`,
  write,
  timeoutMs: 10_000,
  targets: { subscriberId: ADA, integrationId: INTEGRATIONS.plivo, restorePrimaryId: INTEGRATIONS.twilio, messageId: adaMessage(3) },
})

describe.each([
  ['bare', false],
  ['enveloped', true],
])('verify against the mock itself (%s)', (_mode, envelope) => {
  let mock: MockServer
  beforeAll(async () => {
    mock = await startTestServer({ envelope })
  })
  afterAll(() => mock.close())

  it('passes every probe, writes included, with no note but the envelope', async () => {
    const results = await verifyTarget((await loadContracts()).api, options(mock.url, true))
    expect(results.filter((r) => !r.passed)).toEqual([])
    expect(results).toHaveLength(12)
    const notes = results.flatMap((r) => r.notes)
    expect(notes.every((note) => note === 'result enveloped as {"data": …}')).toBe(true)
    expect(notes.length > 0).toBe(envelope)
  })
})

/** A server that answers off the contract, one way per route. */
function offContract(): Server {
  const subscriber = { subscriberId: ADA, _organizationId: 'o', _environmentId: 'e', deleted: false, createdAt: '2024-01-01T00:00:00.000Z', updatedAt: '2024-01-01T00:00:00.000Z' }
  return createServer((req, res) => {
    const send = (status: number, body: unknown) => res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(body))
    if (req.url === `/v2/subscribers/${ADA}`) {
      res.setHeader('RateLimit-Remaining', 'plenty')
      return send(200, { ...subscriber, firstName: 42, extraFromTheFuture: true })
    }
    if (req.url?.startsWith('/v2/subscribers/')) return send(200, subscriber) // an unknown subscriber should be a 404
    if (req.url === '/v1/channel-connections?limit=2') return send(200, { data: [], next: null, previous: null, totalCount: 0 })
    res.writeHead(500, { 'Content-Type': 'text/plain' }).end('boom')
  })
}

describe('verify against a server that answers off the contract', () => {
  let server: Server
  let url: string
  beforeAll(async () => {
    server = offContract().listen(0, '127.0.0.1')
    await once(server, 'listening')
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  })
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

  it('reports a wrong type, a missing field and a wrong status, and notes an extra field', async () => {
    const results = await verifyTarget((await loadContracts()).api, options(url))
    const byName = new Map(results.map((r) => [r.name, r]))
    const retrieved = byName.get('retrieve a subscriber')!
    expect(retrieved.passed).toBe(false)
    expect(retrieved.violations).toContainEqual(expect.objectContaining({ instancePath: '/firstName', value: 42 }))
    expect(retrieved.notes).toEqual(['extra field "extraFromTheFuture" at /'])
    expect(retrieved.violations).toContainEqual(expect.objectContaining({ message: 'header RateLimit-Remaining must be an integer', value: 'plenty' }))
    expect(byName.get('retrieve an unknown subscriber')!.violations[0]!.message).toBe('status 200, expected 404')
    expect(byName.get('list channel connections')!.violations).toContainEqual(expect.objectContaining({ message: "must have required property 'totalCountCapped'" }))
    expect(byName.get('mark messages of an unknown subscriber')!.violations.map((v) => v.message)).toContain('the body is not JSON')
    const report = formatReport(url, results)
    expect(report).toContain(`FAIL retrieve a subscriber (GET /v2/subscribers/${ADA} -> 200)`)
    expect(report).toMatch(/must be string,?.* at \/firstName \(value: 42\)/)
  })

  it('makes the CLI exit 1 with a JSON report for CI', async () => {
    const run = promisify(execFile)('node', ['bin/novu-mock.js', 'verify', '--target', url, '--api-key', 'k', '--json'])
    const failure = await run.then(() => undefined, (error: { code: number; stdout: string }) => error)
    expect(failure?.code).toBe(1)
    const results = JSON.parse(failure!.stdout) as { passed: boolean }[]
    expect(results.some((r) => !r.passed)).toBe(true)
  })
})

describe('verify against a target with a base path (a gateway’s prefix)', () => {
  let mock: MockServer
  let gateway: Server
  let url: string
  beforeAll(async () => {
    mock = await startTestServer()
    // Forwards /novu/* to the mock, as a gateway does; every other path is its own HTML 404.
    gateway = createServer((req, res) => {
      if (!req.url?.startsWith('/novu/')) return void res.writeHead(404, { 'Content-Type': 'text/html' }).end('<h1>Not Found</h1>')
      req.url = req.url.slice('/novu'.length)
      mock.app(req, res)
    }).listen(0, '127.0.0.1')
    await once(gateway, 'listening')
    url = `http://127.0.0.1:${(gateway.address() as AddressInfo).port}`
  })
  afterAll(async () => {
    await new Promise<void>((resolve) => gateway.close(() => resolve()))
    await mock.close()
  })
  const verify = (target: string) =>
    promisify(execFile)('node', ['bin/novu-mock.js', 'verify', '--target', target, '--api-key', `k-${crypto.randomUUID()}`]).then(
      ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
      (error: { code: number; stdout: string; stderr: string }) => error,
    )

  it('sends every probe under the base path, with or without a trailing slash', async () => {
    for (const target of [`${url}/novu`, `${url}/novu/`]) {
      const results = await verifyTarget((await loadContracts()).api, options(target, true))
      expect(results.filter((r) => !r.passed)).toEqual([])
      expect(results.every((r) => r.path.startsWith('/novu/'))).toBe(true)
    }
    const { code, stdout } = await verify(`${url}/novu`)
    expect(code).toBe(0)
    expect(stdout).toContain(`PASS retrieve a subscriber (GET /novu/v2/subscribers/demo-subscriber-1 -> 200)`)
  })

  it('fails in one line when the target answers no probe as the Novu API would (HTML, or 404 on every path)', async () => {
    const atRoot = await verify(url)
    expect({ code: atRoot.code, stdout: atRoot.stdout }).toEqual({ code: 1, stdout: '' })
    expect(atRoot.stderr).toBe(
      `novu-mock: ${url}: answered no probe as the Novu API would (status 404, never JSON; e.g. GET /v2/subscribers/demo-subscriber-1 -> 404); check --target (its base path included) and --api-key; nothing was checked\n`,
    )
    // The mock's own API reference: JSON 404s on every path below it.
    const reference = await verify(`${mock.url}/docs`)
    expect(reference.code).toBe(1)
    expect(reference.stderr).toMatch(/^novu-mock: .*\/docs: answered no probe as the Novu API would \(status 404; e\.g\. GET \/docs\/v2\/subscribers\/demo-subscriber-1 -> 404\).*\n$/)
  })
})

describe('verify against a server that does not answer', () => {
  const verify = (target: string, ...extra: string[]) =>
    promisify(execFile)('node', ['bin/novu-mock.js', 'verify', '--target', target, '--api-key', 'k', ...extra]).then(
      () => ({ code: 0, stdout: '', stderr: '' }),
      (error: { code: number; stdout: string; stderr: string }) => error,
    )

  it('says so in one line when nothing listens there (exit 1)', async () => {
    const target = `http://127.0.0.1:${await freePort()}`
    const { code, stdout, stderr } = await verify(target)
    expect({ code, stdout }).toEqual({ code: 1, stdout: '' })
    expect(stderr).toBe(`novu-mock: ${target}: no answer (ECONNREFUSED); nothing was checked\n`)
  })

  it('says so in one line when it accepts the connection and stays silent past --timeout', async () => {
    const silent = createServer(() => {}).listen(0, '127.0.0.1')
    await once(silent, 'listening')
    const target = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`
    try {
      const { code, stderr } = await verify(target, '--timeout', '300', '--json')
      expect(code).toBe(1)
      expect(stderr).toBe(`novu-mock: ${target}: no answer within 300 ms; nothing was checked\n`)
    } finally {
      silent.closeAllConnections()
      silent.close()
    }
  })
})
