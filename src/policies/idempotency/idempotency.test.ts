import { describe, expect, it } from 'vitest'
import { IdempotencyRecords, type KeyedRequest, type Recording } from './idempotency.ts'

const NOW = Date.parse('2026-11-23T12:00:00.000Z')
const request = (body: unknown = { markAs: 'read' }): KeyedRequest => ({ method: 'POST', path: '/v1/subscribers/s/messages/mark-as', body: Buffer.from(JSON.stringify(body)) })
const ANSWER = { data: 'x'.repeat(1000) }

/** Opens a record for a new key, as the route does. */
function open(records: IdempotencyRecords, tenant: string, key: string, sent = request(), now = NOW): Recording {
  const outcome = records.begin(tenant, key, sent, now)
  if (outcome.kind !== 'proceed') throw new Error(`${key}: ${outcome.kind}`)
  return outcome
}

/** Records a finished call with this key, as the route does. */
function record(records: IdempotencyRecords, tenant: string, key: string): void {
  records.finish(open(records, tenant, key), 201, JSON.stringify(ANSWER))
}

const isRemembered = (records: IdempotencyRecords, tenant: string, key: string) => records.begin(tenant, key, request(), NOW).kind === 'replay'

describe('idempotency records', () => {
  it('replays a finished call, refuses another body with the same key, and forgets after 24 hours', () => {
    const records = new IdempotencyRecords({ maxPerTenant: 10, maxBytes: 2 ** 20 })
    record(records, 't', 'k')
    expect(records.begin('t', 'k', request(), NOW)).toEqual({ kind: 'replay', status: 201, body: ANSWER })
    expect(() => records.begin('t', 'k', request({ markAs: 'seen' }), NOW)).toThrow(/different body/)
    expect(records.begin('t', 'k', request(), NOW + 24 * 60 * 60 * 1000 + 1).kind).toBe('proceed')
  })

  it('tells long bodies apart too (they are hashed, not kept)', () => {
    const records = new IdempotencyRecords({ maxPerTenant: 10, maxBytes: 2 ** 20 })
    const long = (tail: string) => request({ deviceTokens: ['t'.repeat(600), tail] })
    records.finish(open(records, 't', 'k', long('a')), 200, '{}')
    expect(records.begin('t', 'k', long('a'), NOW).kind).toBe('replay')
    expect(() => records.begin('t', 'k', long('b'), NOW)).toThrow(/different body/)
  })

  it('tells bodies one byte apart, at either end, and a body from none', () => {
    const records = new IdempotencyRecords({ maxPerTenant: 10, maxBytes: 2 ** 20 })
    const sent = (body: string | undefined) => ({ ...request(), body: body === undefined ? undefined : Buffer.from(body) })
    const BODY = '{"markAs":"read","messageId":["m-1"]}'
    records.finish(open(records, 't', 'k', sent(BODY)), 201, '{}')
    records.finish(open(records, 't', 'none', sent(undefined)), 201, '{}')
    expect(records.begin('t', 'k', sent(BODY), NOW).kind).toBe('replay')
    for (const other of [` ${BODY.slice(1)}`, `${BODY.slice(0, -1)} `, undefined]) {
      expect(() => records.begin('t', 'k', sent(other), NOW)).toThrow(/different body/)
    }
    expect(records.begin('t', 'none', sent(undefined), NOW).kind).toBe('replay')
    expect(records.begin('t', 'none', sent(''), NOW).kind).toBe('replay')
    expect(() => records.begin('t', 'none', sent('{}'), NOW)).toThrow(/different body/)
  })

  it('keeps the last maxPerTenant keys per tenant, dropping the oldest', () => {
    const records = new IdempotencyRecords({ maxPerTenant: 10, maxBytes: 2 ** 20 })
    const keys = Array.from({ length: 23 }, (_, i) => `k${i}`)
    for (const key of keys) record(records, 't', key)
    // Newest first: the remembered keys are the most recent ones, so each check before the first miss is a replay.
    const remembered = [...keys].reverse().map((key) => isRemembered(records, 't', key))
    const kept = remembered.indexOf(false)
    expect(kept).toBe(10)
    expect(remembered.slice(kept)).not.toContain(true)
  })

  it('stays within its bytes over all tenants, dropping the records of the tenants written least recently', () => {
    // Each record holds a ~1 KB answer: room for about ten.
    const records = new IdempotencyRecords({ maxPerTenant: 1000, maxBytes: 12_000 })
    for (let tenant = 0; tenant < 100; tenant++) record(records, `tenant-${tenant}`, 'k')
    expect(isRemembered(records, 'tenant-99', 'k')).toBe(true)
    expect(isRemembered(records, 'tenant-95', 'k')).toBe(true)
    expect(isRemembered(records, 'tenant-0', 'k')).toBe(false)
    expect(isRemembered(records, 'tenant-50', 'k')).toBe(false)
  })

  it('keeps the record just written when one tenant alone is over the bytes, and drops its older ones', () => {
    const records = new IdempotencyRecords({ maxPerTenant: 1000, maxBytes: 12_000 })
    for (let i = 0; i < 30; i++) record(records, 't', `k${i}`)
    expect(isRemembered(records, 't', 'k29')).toBe(true)
    expect(isRemembered(records, 't', 'k0')).toBe(false)
  })

  it('forgets a key whose call was abandoned, so that a retry runs again', () => {
    const records = new IdempotencyRecords({ maxPerTenant: 10, maxBytes: 2 ** 20 })
    records.abandon(open(records, 't', 'k'))
    expect(records.begin('t', 'k', request(), NOW).kind).toBe('proceed')
  })

  it('does not keep, nor count, the answer of a record dropped while its call ran', () => {
    // Each answer is ~1 KB: counted for the 49 dropped records too, they would push out every other tenant's.
    const records = new IdempotencyRecords({ maxPerTenant: 2, maxBytes: 12_000 })
    const running = Array.from({ length: 50 }, (_, i) => open(records, 't', `k${i}`))
    for (const recording of running) records.finish(recording, 201, JSON.stringify(ANSWER))
    expect(isRemembered(records, 't', 'k0')).toBe(false)
    record(records, 'u', 'k')
    expect(isRemembered(records, 't', 'k49')).toBe(true)
    expect(isRemembered(records, 'u', 'k')).toBe(true)
  })
})
