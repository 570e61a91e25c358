import { describe, expect, it } from 'vitest'
import { turnBatched } from './turn-batched.ts'

describe('turnBatched', () => {
  it('hands the lines of one turn to the stream in one write, in their order, once the turn ends', async () => {
    const writes: string[] = []
    const destination = turnBatched({ write: (text) => writes.push(text), flushSync: () => {} })
    destination.write('a\n')
    destination.write('b\n')
    expect(writes).toEqual([])
    await new Promise((resolve) => setImmediate(resolve))
    destination.write('c\n')
    await new Promise((resolve) => setImmediate(resolve))
    expect(writes).toEqual(['a\nb\n', 'c\n'])
  })
})
