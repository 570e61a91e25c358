import { describe, expect, it } from 'vitest'
import { isoStamp, isoTime } from './iso-time.ts'

describe('isoTime', () => {
  it('answers each millisecond its own time, however the calls alternate', () => {
    const times = [0, 0, 1, 0, 1_700_000_000_123, 1_700_000_000_123, 1]
    expect(times.map(isoTime)).toEqual(times.map((ms) => new Date(ms).toISOString()))
  })
})

describe('isoStamp', () => {
  it('stamps the instants of years 0001 to 9999 as they are, and any other (or none) with the real time', () => {
    expect(isoStamp(Date.parse('0001-01-01T00:00:00.000Z'))).toBe('0001-01-01T00:00:00.000Z')
    expect(isoStamp(Date.parse('9999-12-31T23:59:59.999Z'))).toBe('9999-12-31T23:59:59.999Z')
    for (const ms of [Date.parse('9999-12-31T23:59:59.999Z') + 1, Date.parse('0001-01-01T00:00:00.000Z') - 1, 8.64e15 + 1, Number.NaN, Infinity]) {
      const before = Date.now()
      const stamp = Date.parse(isoStamp(ms))
      expect(stamp).toBeGreaterThanOrEqual(before)
      expect(stamp).toBeLessThanOrEqual(Date.now())
    }
  })
})
