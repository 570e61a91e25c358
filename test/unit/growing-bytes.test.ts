import { describe, expect, it } from 'vitest'
import { GrowingBytes } from '../../src/lib/growing-bytes.ts'

function grown(chunks: Buffer[]): GrowingBytes {
  const bytes = new GrowingBytes()
  for (const chunk of chunks) bytes.push(chunk)
  return bytes
}

describe('GrowingBytes', () => {
  it('one chunk is that chunk, not a copy', async () => {
    const only = Buffer.from('{"a":1}')
    expect(await grown([only]).joined()).toBe(only)
  })

  it.each([
    ['small', 10, 100],
    ['larger than a step', 900, 1500],
    ['many tiny', 20_000, 30],
  ])('%s chunks join to what Buffer.concat makes', async (_name, count, size) => {
    const chunks = Array.from({ length: count }, (_, i) => Buffer.alloc(size + (i % 7), i % 251))
    const bytes = grown(chunks)
    const joined = await bytes.joined()
    expect(bytes.length).toBe(joined.length)
    expect(Buffer.compare(joined, Buffer.concat(chunks))).toBe(0)
  })
})
