import { describe, expect, it, vi } from 'vitest'
import { LEAST_WRITE_INTERVAL_MS, turnBatched } from './turn-batched.ts'

const turnEnds = () => new Promise((resolve) => setImmediate(resolve))

describe('turnBatched', () => {
  it('hands the lines of one turn to the stream in one write, in their order, once the turn ends', async () => {
    const writes: string[] = []
    const destination = turnBatched({ write: (text) => writes.push(text), flushSync: () => {} })
    destination.write('a\n')
    destination.write('b\n')
    expect(writes).toEqual([])
    await turnEnds()
    expect(writes).toEqual(['a\nb\n'])
  })

  it('writes the lines of the turns that follow a write once the least interval has passed since it, in one write', () => {
    vi.useFakeTimers({ toFake: ['setImmediate', 'setTimeout', 'performance'] })
    try {
      const writes: string[] = []
      const destination = turnBatched({ write: (text) => writes.push(text), flushSync: () => {} })
      destination.write('a\n')
      vi.advanceTimersByTime(0)
      expect(writes).toEqual(['a\n'])
      destination.write('b\n')
      vi.advanceTimersByTime(LEAST_WRITE_INTERVAL_MS / 2)
      destination.write('c\n')
      expect(writes).toEqual(['a\n'])
      vi.advanceTimersByTime(LEAST_WRITE_INTERVAL_MS / 2)
      expect(writes).toEqual(['a\n', 'b\nc\n'])
    } finally {
      vi.useRealTimers()
    }
  })
})
