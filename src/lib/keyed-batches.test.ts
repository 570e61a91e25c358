import { describe, expect, it } from 'vitest'
import { keyedBatches } from './keyed-batches.ts'

describe('keyedBatches', () => {
  it('hands each key its items in order at the moment scheduled, or sooner when flushed, then starts a new batch', () => {
    const scheduled: (() => unknown)[] = []
    const sent: [string, number[]][] = []
    const batches = keyedBatches<number, number>((_key, flush) => void scheduled.push(flush), (key, items) => sent.push([key, items]))
    batches.add('a', 1)
    batches.add('b', 2)
    batches.add('a', 3)
    expect(scheduled).toHaveLength(2)
    scheduled[1]!()
    expect(sent).toEqual([['b', [2]]])
    expect(batches.flush('a')).toBe(2)
    expect(sent).toEqual([['b', [2]], ['a', [1, 3]]])
    batches.add('a', 4)
    expect(scheduled).toHaveLength(3)
    // A moment that comes after its batch was flushed sends what waits then, if anything.
    scheduled[0]!()
    scheduled[2]!()
    expect(sent).toEqual([['b', [2]], ['a', [1, 3]], ['a', [4]]])
    expect(batches.flush('a')).toBeUndefined()
  })
})
