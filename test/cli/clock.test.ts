import request from 'supertest'
import { describe, expect, it } from 'vitest'
import { runCli, startCli } from '../helpers/cli.ts'
import { freshTenant } from '../helpers/start-test-server.ts'

const START = '2024-12-24T18:00:00.000Z'

describe('--clock and NOVU_MOCK_CLOCK', () => {
  it.each([
    ['the flag', ['--clock', '2024-12-24T19:00:00+01:00'], {}],
    ['the variable', [], { NOVU_MOCK_CLOCK: START }],
  ])('start every tenant frozen at the instant given by %s', async (_how, args, env) => {
    const served = await startCli(['--port', '0', '--log-level', 'silent', ...args], { env })
    try {
      const res = await request(served.url).get('/__admin/clock').set(freshTenant())
      expect([res.status, res.body]).toEqual([200, { now: START, frozen: true }])
    } finally {
      await served.stop()
    }
  })

  it.each([['tomorrow'], ['2024-12-24'], ['2024-12-24T18:00:00'], ['2024-13-40T18:00:00Z']])('refuses %s: not an ISO 8601 instant with its zone', async (text) => {
    const run = await runCli(['--clock', text])
    expect(run.code).not.toBe(0)
    expect(run.stderr).toContain(`--clock must be an ISO 8601 instant like 2025-01-01T00:00:00.000Z, got "${text}"`)
  })

  it.each([['0001-01-01T00:00:00+01:00'], ['9999-12-31T23:59:59.999-01:00']])('refuses %s: out of the years 0001-9999, a usage error', async (text) => {
    const run = await runCli(['--clock', text])
    expect(run.code).toBe(2)
    expect(run.stderr).toContain(`--clock must be within 0001-01-01T00:00:00.000Z and 9999-12-31T23:59:59.999Z, got "${text}"`)
  })
})
