import { describe, expect, it } from 'vitest'
import { readBatches } from './turn-batches.ts'

/** A tenant's queue and a sync that waits until released, counting the syncs sent. */
function setup() {
  let queue: Promise<void> = Promise.resolve()
  const serialized = (_tenant: string, task: () => Promise<void>) => (queue = queue.then(task))
  const sent: { release: (error?: Error) => void }[] = []
  let version = 0
  const sync = () =>
    new Promise<void>((resolve, reject) => {
      sent.push({ release: (error) => (error ? reject(error) : (version++, resolve())) })
    })
  const until = async (count: number) => {
    while (sent.length < count) await new Promise((resolve) => setImmediate(resolve))
  }
  return { read: readBatches(serialized, sync), sent, until, version: () => version }
}

describe('readBatches', () => {
  it('lets the reads that arrive before a sync is sent share it', async () => {
    const { read, sent, until, version } = setup()
    const reads = Array.from({ length: 5 }, () => read('t', version))
    await until(1)
    sent[0]!.release()
    expect(await Promise.all(reads)).toEqual([1, 1, 1, 1, 1])
    expect(sent).toHaveLength(1)
  })

  it('makes a read that arrives while a sync is in flight wait for the next one', async () => {
    const { read, sent, until, version } = setup()
    const first = read('t', version)
    await until(1)
    const second = read('t', version)
    sent[0]!.release()
    expect(await first).toBe(1)
    await until(2)
    sent[1]!.release()
    expect(await second).toBe(2)
  })

  it('rejects the reads of a batch whose sync failed, and syncs again for the next', async () => {
    const { read, sent, until, version } = setup()
    const failed = read('t', version)
    await until(1)
    sent[0]!.release(new Error('unreachable'))
    await expect(failed).rejects.toThrow('unreachable')
    const next = read('t', version)
    await until(2)
    sent[1]!.release()
    expect(await next).toBe(1)
  })
})
