import { keyedBatches } from '../../lib/keyed-batches.ts'

/** Runs a task after the tenant's earlier ones (and before its later ones). */
type Serialized = (tenant: string, task: () => Promise<void>) => Promise<void>

/**
 * Per tenant, the items that arrive before the tenant's next turn comes (`serialized`) are handed
 * to `run` together when it comes; an item arriving once that turn has begun waits for the next.
 */
export function turnBatches<Item>(serialized: Serialized, run: (tenant: string, items: Item[]) => Promise<void>): (tenant: string, item: Item) => void {
  const batches = keyedBatches<Item, Promise<void>>((tenant, flush) => void serialized(tenant, async () => flush()), run)
  return batches.add
}

/**
 * Reads of a tenant kept in a shared backend, each after a sync with it: the reads that arrive
 * before the tenant's next sync is sent share it. Each read still sees every change acknowledged
 * before it arrived (its sync is sent after it arrives), and 50 reads at once cost one round trip
 * rather than 50 in turn.
 */
export function readBatches(
  serialized: Serialized,
  /** Brings the tenant up to date with the shared backend. */
  sync: (tenant: string) => Promise<void>,
) {
  const join = turnBatches<(failed?: { error: unknown }) => void>(serialized, async (tenant, reads) => {
    let failed: { error: unknown } | undefined
    await sync(tenant).catch((error: unknown) => void (failed = { error }))
    for (const each of reads) each(failed)
  })

  return function read<T>(tenant: string, work: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) =>
      join(tenant, (failed) => {
        if (failed) return reject(failed.error)
        try {
          resolve(work())
        } catch (thrown) {
          reject(thrown)
        }
      }),
    )
  }
}

/** A read after a sync (readBatches). */
type Read = <T>(tenant: string, work: () => T) => Promise<T>

/**
 * The reads of a shared backend's tenants, the calls' ones after the sync sent when their call
 * was opened: the sync sent at the latest opening of a tenant was sent after every call of it
 * opened so far arrived, so each of their reads sees every change acknowledged before its call
 * arrived, without a trip of its own. Any other read (`ofCall` false: the control plane's, with no
 * call opened) gets a sync sent after it arrived.
 */
export function callReads(read: Read) {
  /** Per tenant, the sync sent at its latest opening. */
  const opened = new Map<string, Promise<void>>()
  return {
    /** A call of the tenant opened: its reads wait for `synced` (a sync sent now, by default). */
    opened(tenant: string, synced: Promise<void> = read(tenant, () => undefined)): Promise<void> {
      opened.set(tenant, synced)
      return synced
    },
    read<T>(tenant: string, work: () => T, ofCall = false): Promise<T> {
      const synced = ofCall ? opened.get(tenant) : undefined
      return synced ? synced.then(work) : read(tenant, work)
    },
    forget: (tenant: string): void => void opened.delete(tenant),
  }
}
