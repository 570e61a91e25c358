/**
 * One call of `write` per turn of the event loop, however many changes ask for it: 100
 * concurrent writers share one transaction (and one sync of the disk). Each caller's promise
 * settles with that write.
 */
export function groupedPerTick(write: () => Promise<void>): () => Promise<void> {
  let pending: Promise<void> | undefined
  return () =>
    (pending ??= new Promise<void>((resolve) => setImmediate(resolve)).then(() => {
      pending = undefined
      return write()
    }))
}
