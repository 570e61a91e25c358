import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadContracts } from '../../src/app/create-state.ts'
import type { MockServer } from '../../src/app/create-mock-server.ts'
import { formatReport } from '../../src/verify/format-report.ts'
import { verifyTarget, type VerifyOptions } from '../../src/verify/verify-target.ts'
import { runCli } from '../helpers/cli.ts'
import { readState } from '../helpers/read-state.ts'
import { startTestServer } from '../helpers/start-test-server.ts'

let mock: MockServer
beforeAll(async () => {
  mock = await startTestServer()
})
afterAll(() => mock.close())

const writeOnly = (apiKey: string): VerifyOptions => ({ target: mock.url, apiKey, write: true, timeoutMs: 10_000, targets: { subscriberId: 'demo-subscriber-1' } })

describe('verify --write without the ids the writes need', () => {
  it('reports each write it could not send, with the flag that sends it, and passes', async () => {
    const apiKey = `verify-${crypto.randomUUID()}`
    const results = await verifyTarget((await loadContracts()).api, writeOnly(apiKey))
    expect(results).toHaveLength(12)
    expect(results.filter((r) => r.skipped !== undefined).map((r) => [r.name, r.skipped])).toEqual([
      ['set an integration as primary', 'give --integration <id>'],
      ['put the previous primary back', 'give --restore-primary <id>'],
      ['mark a message seen', 'give --message <id>'],
    ])
    expect(results.every((r) => r.passed)).toBe(true)
    const report = formatReport(mock.url, results)
    expect(report).toContain('  SKIP mark a message seen: not sent (give --message <id>)\n')
    expect(report.trimEnd().split('\n').at(-1)).toBe('9 probes, 0 failed, 3 skipped (SKIP above: the flag that sends each)')
    // Nothing was sent for them: the message is as seeded, the primary unchanged.
    const state = await readState(mock.url, { Authorization: `ApiKey ${apiKey}` })
    expect(state.messages.filter((m) => m.seen && m._id === '64f200000000000000000001')).toEqual([])
    const calls = await (await fetch(`${mock.url}/__admin/requests`, { headers: { Authorization: `ApiKey ${apiKey}` } })).json()
    expect(calls.requests).toHaveLength(9)
  })

  it('the CLI says so too, and exits 0', async () => {
    const { code, stdout } = await runCli(['verify', '--target', mock.url, '--api-key', `verify-${crypto.randomUUID()}`, '--write'])
    expect(stdout).toContain('SKIP set an integration as primary: not sent (give --integration <id>)')
    expect(stdout).toMatch(/9 probes, 0 failed, 3 skipped/)
    expect(code).toBe(0)
  })
})
