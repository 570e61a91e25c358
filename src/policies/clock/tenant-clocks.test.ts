import { describe, expect, it } from 'vitest'
import { TenantClocks } from './tenant-clocks.ts'
import { clocksInMemory } from '../../../test/helpers/clocks-in-memory.ts'

const T0 = Date.parse('2025-03-01T12:00:00.000Z')
const iso = (ms: number) => new Date(ms).toISOString()

/** Clocks over a real clock the test moves, telling which tenants' time went back, and to when. */
function clocksAt(start?: number) {
  let real = Date.parse('2026-11-26T10:00:00.000Z')
  const rewinds: [string, string][] = []
  const clocks = new TenantClocks({ store: clocksInMemory(), start, realNow: () => real, onRewind: (tenant, now) => void rewinds.push([tenant, iso(now)]) })
  return { clocks, rewinds, pass: (ms: number) => void (real += ms), real: () => real }
}

describe('TenantClocks', () => {
  it('runs a clock set with frozen false at real speed from its time, and advances it by exactly ms', async () => {
    const { clocks, pass } = clocksAt()
    await clocks.set('a', T0, false)
    pass(1500)
    expect(clocks.now('a')).toBe(T0 + 1500)
    expect(await clocks.advance('a', 500)).toEqual({ now: iso(T0 + 2000), frozen: false })
    pass(10)
    expect(await clocks.get('a')).toEqual({ now: iso(T0 + 2010), frozen: false })
  })

  it('keeps a frozen clock still while real time passes', async () => {
    const { clocks, pass } = clocksAt()
    await clocks.set('a', T0, true)
    pass(60_000)
    expect(clocks.now('a')).toBe(T0)
  })

  it('tells of a move back (a set to earlier, real time after a future, a reset), and of no move forward', async () => {
    const { clocks, rewinds, real } = clocksAt(T0)
    await clocks.advance('a', 1000)
    await clocks.set('a', T0 + 5000, true)
    expect(rewinds).toEqual([])
    await clocks.set('a', T0 + 10, true)
    await clocks.reset('a')
    await clocks.set('b', real() + 3_600_000, true)
    await clocks.useRealTime('b')
    expect(rewinds).toEqual([
      ['a', iso(T0 + 10)],
      ['a', iso(T0)],
      ['b', iso(real())],
    ])
  })

  it('answers the starting clock for a tenant with none, and refuses to pass the last date', async () => {
    const { clocks } = clocksAt(T0)
    expect(await clocks.get('new')).toEqual({ now: iso(T0), frozen: true })
    expect(clocks.startNow()).toBe(T0)
    expect(await clocks.advance('new', 8.64e15)).toEqual({ refused: 'range' })
    expect(await clocks.get('new')).toEqual({ now: iso(T0), frozen: true })
  })

  it('keeps every clock within years 0001 to 9999, a running one a year from the end, and changes nothing when it refuses', async () => {
    const { clocks } = clocksAt()
    const last = Date.parse('9999-12-31T23:59:59.999Z')
    expect(await clocks.set('a', last, true)).toEqual({ now: '9999-12-31T23:59:59.999Z', frozen: true })
    expect(await clocks.advance('a', 1)).toEqual({ refused: 'range' })
    expect(await clocks.set('a', Date.parse('0001-01-01T00:00:00.000Z') - 1, true)).toEqual({ refused: 'range' })
    expect(await clocks.set('a', Number.NaN, true)).toEqual({ refused: 'range' })
    expect(await clocks.set('a', Date.parse('9999-06-01T00:00:00.000Z'), false)).toEqual({ refused: 'running' })
    expect(await clocks.get('a')).toEqual({ now: '9999-12-31T23:59:59.999Z', frozen: true })
    expect(await clocks.set('b', Date.parse('9998-12-31T23:59:59.999Z'), false)).toEqual({ now: '9998-12-31T23:59:59.999Z', frozen: false })
    expect(await clocks.advance('b', 1)).toEqual({ refused: 'running' })
  })

  it('puts a clock kept out of the range back on real time, at load and on reading, and tells of it', async () => {
    const real = Date.parse('2026-11-26T10:00:00.000Z')
    const store = clocksInMemory([['old', { at: 8.64e15, frozen: true, since: 0 }]])
    const told: string[] = []
    const clocks = new TenantClocks({ store, start: undefined, realNow: () => real, onRewind: () => undefined, onOutOfRange: (tenant) => void told.push(tenant) })
    expect(told).toEqual(['old'])
    await new Promise((resolve) => setImmediate(resolve))
    expect(store.clockOf('old')).toBeNull()
    expect(await clocks.get('old')).toEqual({ now: iso(real), frozen: false })
    await store.keepClock('later', { at: Date.parse('9999-12-31T23:59:00.000Z'), frozen: false, since: real - 3_600_000 })
    expect(clocks.now('later')).toBe(real)
    expect(told).toEqual(['old', 'later'])
  })
})
