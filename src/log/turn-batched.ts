/** What the batch needs of pino's stderr stream (a SonicBoom). */
export interface FlushableStream {
  write(text: string): unknown
  flushSync(): void
}

/**
 * Lines gathered over one turn of the event loop, handed to `stream` in one write when the turn
 * ends. Handed one by one, a line under load meant one write to the file descriptor each, on a
 * thread of the pool: per request, the log cost as much as the rest of the call's work. A line
 * waits at most until the turn that wrote it ends; those of the last turn are written at exit.
 */
export function turnBatched(stream: FlushableStream): { write(line: string): void } {
  let pending = ''
  const flush = (): void => {
    const lines = pending
    pending = ''
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
      if (pending === '') setImmediate(flush)
      pending += line
    },
  }
}
