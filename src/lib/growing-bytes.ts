import { inSlices, type Steps } from './slices.ts'

/** Bytes copied in one step of a join: a fraction of a millisecond. */
const STEP_BYTES = 256 * 1024

/**
 * Bytes arriving in chunks, joined into one buffer in steps (docs/behaviour.md §6): joining a
 * 50 MB body's ~800 chunks in one `Buffer.concat` took up to 180 ms during which no other call
 * was answered. A body of one chunk is that chunk; a small one is joined at once.
 */
export class GrowingBytes {
  private readonly chunks: Buffer[] = []
  length = 0

  push(chunk: Buffer): void {
    this.chunks.push(chunk)
    this.length += chunk.length
  }

  joined(): Promise<Buffer> | Buffer {
    if (this.chunks.length === 1) return this.chunks[0]!
    if (this.length <= STEP_BYTES) return Buffer.concat(this.chunks, this.length)
    return inSlices(this.joinSteps(), 1)
  }

  private *joinSteps(): Steps<Buffer> {
    const whole = Buffer.allocUnsafe(this.length)
    let at = 0
    let sinceStep = 0
    for (const chunk of this.chunks) {
      at += chunk.copy(whole, at)
      sinceStep += chunk.length
      if (sinceStep >= STEP_BYTES) {
        sinceStep = 0
        yield
      }
    }
    return whole
  }
}
