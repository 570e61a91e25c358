/**
 * Reads of a tenant kept in a shared backend, each after a sync with it: the reads that arrive
 * before the tenant's next sync is sent share it. Each read still sees every change acknowledged
 * before it arrived (its sync is sent after it arrives), and 50 reads at once cost one round trip
 * rather than 50 in turn.
 */
export function readBatches(
  /** Runs a task after the tenant's earlier ones (and before its later ones). */
  serialized: (tenant: string, task: () => Promise<void>) => Promise<void>,
  /** Brings the tenant up to date with the shared backend. */
  sync: (tenant: string) => Promise<void>,
) {
  /** Per tenant, the reads waiting for a sync not yet sent. */
  const waiting = new Map<string, ((failed?: { error: unknown }) => void)[]>()

  return function read<T>(tenant: string, work: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const run = (failed?: { error: unknown }) => {
        if (failed) return reject(failed.error)
        try {
          resolve(work())
        } catch (thrown) {
          reject(thrown)
        }
      }
      const batch = waiting.get(tenant)
      if (batch) return void batch.push(run)
      const reads = [run]
      waiting.set(tenant, reads)
      void serialized(tenant, async () => {
        // From here on, a read starts the next batch: this sync may be sent before it arrived.
        waiting.delete(tenant)
        let failed: { error: unknown } | undefined
        await sync(tenant).catch((error: unknown) => void (failed = { error }))
        for (const each of reads) each(failed)
      })
    })
  }
}
