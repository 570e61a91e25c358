import { describe, expect, it } from 'vitest'
import { isoTime } from './iso-time.ts'

describe('isoTime', () => {
  it('answers each millisecond its own time, however the calls alternate', () => {
    const times = [0, 0, 1, 0, 1_700_000_000_123, 1_700_000_000_123, 1]
    expect(times.map(isoTime)).toEqual(times.map((ms) => new Date(ms).toISOString()))
  })
})
