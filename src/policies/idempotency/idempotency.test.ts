import { describe, expect, it } from 'vitest'
import { createLowdbStore } from '../../store/lowdb-store.ts'
import type { TenantState } from '../../store/records.ts'
import { Idempotency, type KeyedRequest, type Recording } from './idempotency.ts'
import { RunningKeys } from './running-keys.ts'

const NOW = Date.parse('2026-11-23T12:00:00.000Z')
const request = (body: unknown = { markAs: 'read' }): KeyedRequest => ({ method: 'POST', path: '/v1/subscribers/s/messages/mark-as', body: Buffer.from(JSON.stringify(body)) })
const ANSWER = { data: 'x'.repeat(1000) }
const NO_RECORDS: TenantState = { subscribers: [], integrations: [], channelConnections: [], messages: [] }

/** The rules over a store in memory alone, keeping `keep` records per tenant. */
async function idempotency(keep: number): Promise<Idempotency> {
  const store = await createLowdbStore({ seed: NO_RECORDS, maxTenants: 100, seedFor: async () => NO_RECORDS })
  return new Idempotency({ store, running: new RunningKeys(), keep, stored: false, shared: false })
}

/** Opens a record for a new key, as the route does. */
function open(records: Idempotency, tenant: string, key: string, sent = request(), now = NOW): Recording {
  const outcome = records.begin(tenant, key, sent, now)
  if (outcome instanceof Promise || outcome.kind !== 'proceed') throw new Error(`${key}: not a fresh call`)
  return outcome
}

/** Records a finished call with this key, as the route does. */
function record(records: Idempotency, tenant: string, key: string): void {
  records.finish(open(records, tenant, key), 201, JSON.stringify(ANSWER))
}

const begin = (records: Idempotency, ...args: Parameters<Idempotency['begin']>) => records.begin(...args) as Exclude<ReturnType<Idempotency['begin']>, Promise<unknown>>
const isRemembered = (records: Idempotency, tenant: string, key: string) => begin(records, tenant, key, request(), NOW).kind === 'replay'

describe('idempotency records', async () => {
  it('replays a finished call, refuses another body with the same key, and forgets after 24 hours', async () => {
    const records = await idempotency(10)
    record(records, 't', 'k')
    expect(begin(records, 't', 'k', request(), NOW)).toEqual({ kind: 'replay', status: 201, body: ANSWER })
    expect(() => begin(records, 't', 'k', request({ markAs: 'seen' }), NOW)).toThrow(/different body/)
    expect(begin(records, 't', 'k', request(), NOW + 24 * 60 * 60 * 1000 + 1).kind).toBe('proceed')
  })

  it('tells long bodies apart too (they are hashed, not kept)', async () => {
    const records = await idempotency(10)
    const long = (tail: string) => request({ deviceTokens: ['t'.repeat(600), tail] })
    records.finish(open(records, 't', 'k', long('a')), 200, '{}')
    expect(begin(records, 't', 'k', long('a'), NOW).kind).toBe('replay')
    expect(() => begin(records, 't', 'k', long('b'), NOW)).toThrow(/different body/)
  })

  it('tells bodies one byte apart, at either end, and a body from none', async () => {
    const records = await idempotency(10)
    const sent = (body: string | undefined) => ({ ...request(), body: body === undefined ? undefined : Buffer.from(body) })
    const BODY = '{"markAs":"read","messageId":["m-1"]}'
    records.finish(open(records, 't', 'k', sent(BODY)), 201, '{}')
    records.finish(open(records, 't', 'none', sent(undefined)), 201, '{}')
    expect(begin(records, 't', 'k', sent(BODY), NOW).kind).toBe('replay')
    for (const other of [` ${BODY.slice(1)}`, `${BODY.slice(0, -1)} `, undefined]) {
      expect(() => begin(records, 't', 'k', sent(other), NOW)).toThrow(/different body/)
    }
    expect(begin(records, 't', 'none', sent(undefined), NOW).kind).toBe('replay')
    expect(begin(records, 't', 'none', sent(''), NOW).kind).toBe('replay')
    expect(() => begin(records, 't', 'none', sent('{}'), NOW)).toThrow(/different body/)
  })

  it('keeps the last maxPerTenant keys per tenant, dropping the oldest', async () => {
    const records = await idempotency(10)
    const keys = Array.from({ length: 23 }, (_, i) => `k${i}`)
    for (const key of keys) record(records, 't', key)
    // Newest first: the remembered keys are the most recent ones, so each check before the first miss is a replay.
    const remembered = [...keys].reverse().map((key) => isRemembered(records, 't', key))
    const kept = remembered.indexOf(false)
    expect(kept).toBe(10)
    expect(remembered.slice(kept)).not.toContain(true)
  })

  it('forgets a key whose call was abandoned, so that a retry runs again', async () => {
    const records = await idempotency(10)
    records.abandon(open(records, 't', 'k'))
    expect(begin(records, 't', 'k', request(), NOW).kind).toBe('proceed')
  })

  it('keeps the records of calls that ran together, the newest last to finish', async () => {
    const records = await idempotency(2)
    const running = Array.from({ length: 50 }, (_, i) => open(records, 't', `k${i}`))
    for (const recording of running) records.finish(recording, 201, JSON.stringify(ANSWER))
    expect(isRemembered(records, 't', 'k0')).toBe(false)
    expect(isRemembered(records, 't', 'k49')).toBe(true)
    expect(isRemembered(records, 't', 'k48')).toBe(true)
  })

  it('refuses the key while its first call runs (409, or 422 for another body), and keeps no 409 nor 5xx', async () => {
    const records = await idempotency(10)
    const first = open(records, 't', 'k')
    expect(() => begin(records, 't', 'k', request(), NOW)).toThrow(/currently being processed/)
    expect(() => begin(records, 't', 'k', request({ markAs: 'seen' }), NOW)).toThrow(/different body/)
    records.finish(first, 503, '{}')
    expect(begin(records, 't', 'k', request(), NOW).kind).toBe('proceed')
  })

  it('counts the records as stored at the new time when the clock goes back', async () => {
    const records = await idempotency(10)
    record(records, 't', 'k')
    const later = NOW + 23 * 60 * 60 * 1000
    await records.restamp('t', later)
    expect(begin(records, 't', 'k', request(), NOW + 25 * 60 * 60 * 1000).kind).toBe('replay')
    expect(begin(records, 't', 'k', request(), later + 24 * 60 * 60 * 1000 + 1).kind).toBe('proceed')
  })
})
