import { rowsOfPut } from './overlay.ts'
import type { StoreBackend } from '../store-backend.ts'
import { StoreWriteFailed, type KeyedWrite } from '../store.ts'
import { PendingTransaction } from './tenant-transaction.ts'
import { tenantLoader, type SourceParts, type TenantSource } from './tenant-source.ts'

/**
 * The tenants of the local store: in memory alone, or backed by a file this process alone holds
 * (SQLite). The tenants an earlier run stored are made again from their seed and rows on first use;
 * each change is stored in the file first, and applied to memory only once durable.
 */
export const localSource =
  (backend: StoreBackend | undefined) =>
  ({ memory, saved, serialized, idle, nextSeq, room }: SourceParts): TenantSource => {
    const { loaded, forget } = tenantLoader(memory, backend, saved)
    const readStored = backend?.tenant?.bind(backend)

    const write: TenantSource['write'] = async (change, keyed, also) => {
      if (!backend) return
      try {
        await backend.write([change, ...(keyed ? [{ type: 'keyRecord', tenant: change.tenant, ...keyed } as const] : []), ...(also ? [also] : [])])
      } catch (error) {
        throw new StoreWriteFailed(error)
      }
    }

    /** `work` run now, its result or throw as the promise a task in its turn would give. */
    const settledNow = <T>(work: () => T): Promise<T> => {
      try {
        return Promise.resolve(work())
      } catch (error) {
        return Promise.reject(error)
      }
    }

    /** `work` over the tenant's records as they stand: its result, and the records after it (none when it changed nothing). */
    const ranOver = <T>(tenant: string, work: (tx: PendingTransaction) => T) => {
      const data = memory.dataOf(tenant)
      const tx = new PendingTransaction(data)
      const result = work(tx)
      return { data, tx, result, next: tx.commit() }
    }

    /** `work` over the tenant's records as they stand, what it put applied at once (with its record): in memory alone, nothing is stored first. */
    const changedInMemory = <T>(tenant: string, work: (tx: PendingTransaction) => T, recordOf?: (result: T) => KeyedWrite): T => {
      const { result, next } = ranOver(tenant, work)
      if (next) {
        room(tenant, next)
        memory.apply(tenant, next)
        applyRecord(tenant, recordOf?.(result))
      }
      return result
    }

    /** A write's idempotency record, stored with it, taken into the tenant's value. */
    const applyRecord = (tenant: string, keyed: KeyedWrite | undefined): void => {
      if (keyed) memory.keys.keep(tenant, keyed.record, keyed.keep)
    }

    const attempt = async <T>(tenant: string, change: () => Promise<T>): Promise<T> => {
      await loaded(tenant)
      return change()
    }

    /**
     * Whether a task of the tenant may run now rather than in a later turn: its records are in
     * memory and no task is before it, so waiting would change nothing but the time it takes.
     */
    const ready = (tenant: string): boolean => idle(tenant) && memory.has(tenant)

    return {
      durable: backend !== undefined,
      enter(tenant, created) {
        // Without a backend, a new tenant is its seed; with one, it may be a tenant released earlier.
        if (created && !backend && !memory.seedSpecs.has(tenant)) {
          memory.set(tenant, memory.shared)
          return undefined
        }
        // Awaited only when there is something to wait for: every call opens its tenant.
        return loaded(tenant)
      },
      loaded,
      current: loaded,
      attempt,
      read: (tenant, work) =>
        ready(tenant)
          ? settledNow(work)
          : serialized(tenant, async () => {
              await loaded(tenant)
              return work()
            }),
      transact: (tenant, work, recordOf) =>
        // In memory alone, nothing is stored first: a change with nothing before it is made at once.
        !backend && ready(tenant)
          ? settledNow(() => changedInMemory(tenant, work, recordOf))
          : serialized(tenant, () =>
              attempt(tenant, async () => {
                if (!backend) return changedInMemory(tenant, work, recordOf)
                const { data, tx, result, next } = ranOver(tenant, work)
                if (!next) return result
                room(tenant, next)
                const keyed = recordOf?.(result)
                await write({ type: 'put', tenant, rows: rowsOfPut(data, tx.put(), nextSeq) }, keyed)
                memory.apply(tenant, next)
                applyRecord(tenant, keyed)
                return result
              }),
            ),
      write,
      peek: readStored && (async (tenant) => memory.madeOf(await readStored(tenant))),
      isStored: async (tenant) => (await readStored?.(tenant)) !== undefined,
      // This process alone holds the file: no other stores a tenant meanwhile.
      takenElsewhere: async () => false,
      elsewhere: async () => [],
      forget: (tenant, deleted) => {
        if (deleted) forget(tenant)
      },
      dropTenants: async () => undefined,
    }
  }
