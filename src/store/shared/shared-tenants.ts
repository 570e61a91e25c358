import { replayChange } from './replay-change.ts'
import { callReads, readBatches, turnBatches } from './turn-batches.ts'
import type { Change, OverlayRow, SharedBackend, SharedPut } from '../store-backend.ts'
import { reached, StoreWriteFailed, type KeyedWrite, type TenantTransaction } from '../store.ts'
import type { TenantData } from '../memory/tenant-data.ts'
import type { TenantMemory } from '../memory/tenant-memory.ts'
import { PendingTransaction } from '../memory/tenant-transaction.ts'
import type { Serialized, SourceParts } from '../memory/tenant-source.ts'

/** Conflicts one change may meet (other processes writing the tenant) before it is given up as failed. */
const MAX_TRIES = 1000

/** Another process changed the tenant first: the change is made again over the tenant as it now stands. */
export class VersionConflict extends Error {}

/** A backend's failure as the store answers it: a conflict as it is, anything else a StoreWriteFailed. */
export const writeFailure = (error: unknown): unknown =>
  error instanceof VersionConflict ? error : new StoreWriteFailed(error)

/** How one try of a change over the tenant as held ended: it holds; or it goes again, after a sync or over the version just synced. */
type Tried = 'held' | 'behind' | 'current'

/** A transaction's rows over the tenant's records as they were (overlay.ts's rowsOfPut). */
export type RowsOf = (data: TenantData, tx: PendingTransaction) => readonly OverlayRow[]

/** A transaction waiting for its tenant's next write, and what settles its caller's promise. */
interface Queued {
  work: (tx: TenantTransaction) => unknown
  recordOf: ((result: unknown) => KeyedWrite) | undefined
  resolve: (result: unknown) => void
  reject: (error: unknown) => void
}

/** A transaction run over the tenant as this process holds it: its result or its error, and what it changed. */
interface Ran {
  queued: Queued
  result?: unknown
  /** Thrown by the work (a rule of the service broken): the answer, once the records it read are known to be current. */
  error?: { thrown: unknown }
  /** The records after it, and its rows to store, when it changed any. */
  next?: TenantData
  put?: SharedPut
}

/**
 * The tenants of a backend several processes share (SharedBackend), memory being a cache of the
 * ones this process serves: before each use of a tenant, what other processes changed is
 * replayed (one round trip); each change is written over the version held, and made again over
 * the tenant as it then stands when another process wrote first, so that no client ever sees the
 * conflict (docs/decisions.md).
 */
export function sharedTenants(remote: SharedBackend, memory: TenantMemory, serialized: Serialized, rowsOf: RowsOf, room: SourceParts['room']) {
  /** The version of each tenant held in memory. */
  const versions = new Map<string, number>()
  const { registry } = memory

  /** Writes a tenant's change over the version held. */
  const write = async (change: Change): Promise<void> => {
    // Redis keeps the call times itself, outside the tenant's versions.
    if (change.type === 'touch') return
    const answer = await remote.writeAt(change.tenant, versions.get(change.tenant) ?? 0, change)
    if (answer === 'conflict') throw new VersionConflict()
    versions.set(change.tenant, answer)
  }

  /** A held tenant brought up to the shared backend's version: what others changed replayed, or the tenant read again. */
  const sync = async (tenant: string): Promise<void> => {
    const update = await reached(remote.since(tenant, versions.get(tenant) ?? -1))
    if ('changes' in update) {
      for (const change of update.changes) await replayChange(memory, tenant, change)
    } else {
      const made = await memory.madeOf(update.tenant)
      memory.reload(tenant, update.tenant?.seed, made)
      memory.setClock(tenant, update.tenant?.clock)
      memory.faults.set(tenant, update.tenant?.faults)
      memory.keys.reload(tenant, update.tenant?.keyRecords)
      if (update.tenant) registry.markWritten(tenant)
      if (update.tenant?.seed) registry.markCreated(tenant)
    }
    versions.set(tenant, update.version)
  }

  /**
   * A change over the tenant as this process holds it, with no round trip first: a write is
   * stored only if the tenant has not moved on (else it is read again and the change made again);
   * an attempt that wrote nothing holds once a sync finds the tenant where it was.
   */
  const attempt = async <T>(tenant: string, change: () => Promise<T>): Promise<T> => {
    let result: T | undefined
    await untilHeld(tenant, async () => {
      const before = versions.get(tenant)
      try {
        result = await change()
      } catch (error) {
        if (error instanceof VersionConflict) return 'behind'
        throw error
      }
      if (versions.get(tenant) !== before) return 'held'
      await sync(tenant)
      return versions.get(tenant) === before ? 'held' : 'current'
    })
    return result as T
  }

  /** Tries a change over the tenant as held until it holds, reading what it missed in between; gives up (503) after MAX_TRIES. */
  const untilHeld = async (tenant: string, once: () => Promise<Tried>): Promise<void> => {
    let tried: Tried = versions.has(tenant) ? 'current' : 'behind'
    for (let tries = 1; tries <= MAX_TRIES; tries++) {
      if (tried === 'behind') await sync(tenant)
      tried = await once()
      if (tried === 'held') return
    }
    throw new StoreWriteFailed(new Error(`${MAX_TRIES} conflicting writes of one tenant in a row`))
  }

  /**
   * A transaction of the tenant. The ones that arrive before the tenant's next write is sent are
   * sent with it, as one unit, so that 50 writers at once cost a script or two, not 50 in turn.
   */
  const transact = <T>(tenant: string, work: (tx: TenantTransaction) => T, recordOf?: (result: T) => KeyedWrite): Promise<T> =>
    // The result's type is the work's: only this promise's own resolve is called with it.
    new Promise<T>((resolve, reject) => joinWrite(tenant, { work, recordOf, resolve, reject } as Queued))

  /** Runs and stores the transactions, again over the tenant as it stands when another process wrote first. */
  const writeAll = (tenant: string, transactions: Queued[]): Promise<void> =>
    untilHeld(tenant, () => writeOnce(tenant, transactions)).catch((error: unknown) => {
      for (const { reject } of transactions) reject(error)
    })

  /**
   * Runs the transactions in turn over the tenant as held, and stores what they changed as one
   * unit over the version held; when another process wrote first, they all go again. What a
   * transaction answered without a change (nothing to do, a rule broken) holds once the others'
   * changes are stored, or, when there were none, once a sync finds the tenant where it was: an
   * answer never comes from records another process had already changed.
   */
  const writeOnce = async (tenant: string, pending: Queued[]): Promise<Tried> => {
    const ran = runAll(tenant, pending)
    const version = versions.get(tenant) ?? 0
    const puts = ran.filter(({ next }) => next !== undefined)
    if (puts.length === 0) {
      await sync(tenant)
      if (versions.get(tenant) !== version) return 'current'
    } else {
      const answer = await stored(remote.putsAt(tenant, version, puts.map(({ put }) => put!)))
      if (answer === 'conflict') return 'behind'
      for (const { next, put } of puts) {
        memory.apply(tenant, next!)
        if (put!.record) memory.keys.keep(tenant, put!.record, put!.keep!)
      }
      versions.set(tenant, answer)
    }
    for (const { queued, result, error } of ran) {
      if (error) queued.reject(error.thrown)
      else queued.resolve(result)
    }
    return 'held'
  }

  /** Each transaction over the records the ones before it made; one that throws changes nothing. */
  const runAll = (tenant: string, pending: Queued[]): Ran[] => {
    let data = memory.dataOf(tenant)
    const ran: Ran[] = []
    for (const queued of pending) {
      const tx = new PendingTransaction(data)
      try {
        const result = queued.work(tx)
        const next = tx.commit()
        if (next) room(tenant, next)
        if (!next) ran.push({ queued, result })
        else ran.push({ queued, result, next, put: { rows: rowsOf(data, tx), ...queued.recordOf?.(result) } })
        data = next ?? data
      } catch (thrown) {
        ran.push({ queued, error: { thrown } })
      }
    }
    return ran
  }

  const joinWrite = turnBatches<Queued>(serialized, (tenant, transactions) => writeAll(tenant, transactions))

  /** A write's answer; a failure is a StoreWriteFailed. */
  const stored = <T>(asked: Promise<T>): Promise<T> =>
    asked.catch((error: unknown) => {
      throw writeFailure(error)
    })

  /** A tenant new to this process, read from the shared backend. */
  const enter = async (tenant: string): Promise<void> => {
    try {
      await serialized(tenant, () => sync(tenant))
    } catch (error) {
      registry.remove(tenant)
      throw error
    }
  }

  const reads = callReads(readBatches(serialized, sync))

  /**
   * A call of the tenant arrives (`created`: new to this process): its sync is sent at once, in
   * the trip that takes its token (reading the tenant's clock there too). A new tenant is read before the
   * call goes on; a held one's sync is waited for by the call's first read (callReads).
   */
  const open = (tenant: string, created: boolean): Promise<void> | undefined => {
    if (created) return reads.opened(tenant, enter(tenant))
    reads.opened(tenant).catch(() => undefined) // answered by the call's read, if it makes one
    return undefined
  }

  /** A tenant this process does not hold, as the shared backend has it, left unheld. */
  const peek = async (tenant: string) => {
    const update = await reached(remote.since(tenant, -1))
    return memory.madeOf('tenant' in update ? update.tenant : undefined)
  }

  /** Whether any process stored something of the tenant. */
  const hasState = async (tenant: string): Promise<boolean> => (await reached(remote.since(tenant, -1))).version > 0

  return {
    write,
    transact,
    sync,
    attempt,
    enter,
    peek,
    hasState,
    open,
    read: reads.read,
    /** Every tenant with state, over every process. */
    tenants: () => reached(remote.tenants()),
    /** Forgets the version of a tenant dropped, or whose first change failed. */
    forget: (tenant: string) => {
      versions.delete(tenant)
      reads.forget(tenant)
    },
  }
}

export type SharedTenants = ReturnType<typeof sharedTenants>
