import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { MockServer } from '../../src/app/create-mock-server.ts'
import { startTestServer } from '../helpers/start-test-server.ts'
import { callArbitrary, type Call } from './call-arbitrary.ts'

/** One step of a test: a call of the API (with an idempotency key or none), or a change through the control plane. */
type Step =
  | { kind: 'call'; call: Call; key: string | undefined }
  | { kind: 'advance'; ms: number }
  | { kind: 'snapshot'; name: string }
  | { kind: 'createTenant' }
  | { kind: 'fault' }

const CLOCK = Date.parse('2025-06-01T08:00:00.000Z')

let servers: [MockServer, MockServer]
let steps: fc.Arbitrary<Step>
beforeAll(async () => {
  // Two servers, the same seed and the same --clock: nothing else in common.
  servers = (await Promise.all([0, 1].map(() => startTestServer({ clock: CLOCK })))) as [MockServer, MockServer]
  // A history the first server never saw, in another tenant: what one tenant gets must not depend on it.
  for (const step of [{ kind: 'fault' }, { kind: 'createTenant' }, { kind: 'advance', ms: 5 }] as const) await take(servers[1].url, 'another-tenant', step)
  const calls = await callArbitrary(servers[0].app.locals.seed)
  steps = fc.oneof(
    { weight: 8, arbitrary: fc.record({ kind: fc.constant('call' as const), call: calls, key: fc.option(fc.constantFrom('k1', 'k2', 'k3'), { nil: undefined }) }) },
    { weight: 2, arbitrary: fc.record({ kind: fc.constant('advance' as const), ms: fc.integer({ min: 0, max: 30 * 60 * 60 * 1000 }) }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('snapshot' as const), name: fc.constantFrom('a', 'b') }) },
    { weight: 1, arbitrary: fc.constant({ kind: 'createTenant' as const }) },
    { weight: 1, arbitrary: fc.constant({ kind: 'fault' as const }) },
  )
})
afterAll(() => Promise.all(servers.map((server) => server.close())))

/** What a user sees of one step's answer: its status and its body's bytes. */
async function take(url: string, apiKey: string, step: Step): Promise<string> {
  const headers: Record<string, string> = { Authorization: `ApiKey ${apiKey}`, 'Content-Type': 'application/json' }
  const send = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${url}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) })
    return `${res.status} ${await res.text()}`
  }
  switch (step.kind) {
    case 'call':
      if (step.key !== undefined) headers['Idempotency-Key'] = step.key
      return send(step.call.method.toUpperCase(), step.call.path, step.call.body)
    case 'advance':
      return send('POST', '/__admin/clock/advance', { ms: step.ms })
    case 'snapshot':
      return send('POST', '/__admin/snapshots', { name: step.name })
    case 'createTenant':
      return send('POST', '/__admin/tenants', { subscribers: 2, channelConnections: 0 })
    case 'fault':
      // A rule that matches no call: its id and counters are what the answer shows.
      return send('POST', '/__admin/faults', { preset: 'unavailable', match: { path: '/never' } })
  }
}

describe('determinism (fast-check; the seed is printed on failure)', () => {
  it('answers the same calls on the same seed, clock and key with the same bytes, call by call, on two servers', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(steps, { minLength: 1, maxLength: 12 }), async (sequence) => {
        const apiKey = `determinism-${crypto.randomUUID()}`
        for (const step of sequence) {
          const [first, second] = await Promise.all(servers.map((server) => take(server.url, apiKey, step)))
          expect(second, JSON.stringify(step)).toBe(first)
          // The control plane's steps all succeed, so their answers say something.
          if (step.kind !== 'call') expect(first, JSON.stringify(step)).toMatch(/^20[01] /)
        }
        const states = await Promise.all(servers.map((server) => take(server.url, apiKey, { kind: 'call', key: undefined, call: { operationId: 'getState', method: 'get', path: '/__admin/state' } })))
        expect(states[1]).toBe(states[0])
      }),
      { numRuns: 20 },
    )
  })
})
