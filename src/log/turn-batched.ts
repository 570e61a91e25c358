/** What the batch needs of pino's stderr stream (a SonicBoom). */
export interface FlushableStream {
  write(text: string): unknown
  flushSync(): void
}

/** The least time between two writes, in ms: under load, a write then carries a few dozen lines. */
export const LEAST_WRITE_INTERVAL_MS = 2

/**
 * Lines gathered and handed to `stream` in one write when the turn of the event loop that wrote
 * them ends, or, when the last write was less than LEAST_WRITE_INTERVAL_MS ago, once that much time
 * has passed since it. Handed one by one, a line under load meant one write to the file descriptor
 * each, on a thread of the pool: per request, the log cost as much as the rest of the call's work;
 * and once per turn, a write (about 7 µs of the main thread's time whatever its length) still
 * carried only the few lines of a turn. A line waits at most LEAST_WRITE_INTERVAL_MS; those still
 * waiting are written at exit.
 */
export function turnBatched(stream: FlushableStream): { write(line: string): void } {
  let pending = ''
  let lastWrite = Number.NEGATIVE_INFINITY
  const flush = (): void => {
    const lines = pending
    pending = ''
    lastWrite = performance.now()
    stream.write(lines)
  }
  process.once('exit', () => {
    if (pending === '') return
    flush()
    try {
      stream.flushSync()
    } catch {
      // stderr is gone: nothing left to tell.
    }
  })
  return {
    write(line) {
      if (pending === '') {
        const wait = lastWrite + LEAST_WRITE_INTERVAL_MS - performance.now()
        if (wait <= 0) setImmediate(flush)
        else setTimeout(flush, wait)
      }
      pending += line
    },
  }
}
