import { describe, expect, it } from 'vitest'
import { KeyedFifo } from '../../src/keyed-fifo.ts'

/** Drops everything, oldest first, answering the keys in the order they went. */
function drain(fifo: KeyedFifo<number>): string[] {
  const keys: string[] = []
  for (let oldest = fifo.oldest(); oldest; oldest = fifo.oldest()) {
    keys.push(oldest.key)
    fifo.delete(oldest.key)
  }
  return keys
}

describe('KeyedFifo', () => {
  it('answers the oldest key first; a key added again becomes the newest, a deleted one is skipped', () => {
    const fifo = new KeyedFifo<number>()
    for (const [i, key] of ['a', 'b', 'c', 'd'].entries()) fifo.add(key, i)
    fifo.add('a', 10)
    expect(fifo.delete('c')).toBe(2)
    expect(fifo.delete('c')).toBeUndefined()
    expect(fifo.size).toBe(3)
    expect(fifo.get('a')).toBe(10)
    expect(fifo.oldest()).toEqual({ key: 'b', value: 1 })
    expect(drain(fifo)).toEqual(['b', 'd', 'a'])
    expect(fifo.oldest()).toBeUndefined()
  })

  it('keeps its order through many rounds of dropping the oldest and deleting from the middle', () => {
    const fifo = new KeyedFifo<number>()
    const model: string[] = []
    for (let i = 0; i < 5000; i++) {
      fifo.add(`k${i}`, i)
      model.push(`k${i}`)
      if (i % 3 === 0) {
        const middle = model.splice(Math.floor(model.length / 2), 1)[0]!
        fifo.delete(middle)
      }
      if (model.length > 100) fifo.delete(model.shift()!)
    }
    expect(fifo.size).toBe(model.length)
    expect(drain(fifo)).toEqual(model)
  })
})
