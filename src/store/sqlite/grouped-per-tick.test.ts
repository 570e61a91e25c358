import { describe, expect, it } from 'vitest'
import { groupedPerTick } from './grouped-per-tick.ts'

describe('groupedPerTick', () => {
  it('turns 100 writes asked for in one tick into one, and the next tick into another', async () => {
    let writes = 0
    const persist = groupedPerTick(async () => {
      writes++
    })
    await Promise.all(Array.from({ length: 100 }, () => persist()))
    expect(writes).toBe(1)
    await persist()
    expect(writes).toBe(2)
  })

  it('rejects every caller of a failed write, and writes afresh afterwards', async () => {
    let fail = true
    const persist = groupedPerTick(async () => {
      if (fail) throw new Error('disk full')
    })
    const results = await Promise.allSettled([persist(), persist()])
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected'])
    fail = false
    await expect(persist()).resolves.toBeUndefined()
  })
})
