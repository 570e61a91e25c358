import type { JournalCall, JournalEntry, JournalFilter, JournalListener, JournalPort, RecordOptions, SubscribeOptions } from './journal-port.ts'
import { JournalListeners, MAX_SUBSCRIBERS } from './journal-listeners.ts'
import { entryOf, keptOf, selected, statedEntryOf, type Kept } from './kept-entry.ts'
import { Lru } from '../lib/lru.ts'

export { MAX_SUBSCRIBERS, MAX_SUBSCRIBERS_PER_TENANT } from './journal-listeners.ts'

/** Over all tenants: the oldest entries of the tenants that called least recently go first. */
export const MAX_JOURNAL_BYTES = 64 * 2 ** 20

/** A tenant's own size beyond its entries. */
const TENANT_OVERHEAD_BYTES = 200
/** Tenants whose journal is kept at most, as every cache here is bounded in count: the least recent goes first. */
const MAX_JOURNAL_TENANTS = 10_000

interface TenantJournal {
  next: number
  entries: Kept[]
}

/**
 * The last `size` calls of each tenant, oldest first, dropped as new ones arrive, and at most
 * `maxBytes` and MAX_JOURNAL_TENANTS tenants over all (tenants that stopped calling, evicted ones
 * included, go first).
 */
export class RequestJournal implements JournalPort {
  /** In the order they last recorded a call, least recent first; a journal that leaves gives its bytes back. */
  private readonly tenants = new Lru<TenantJournal>(MAX_JOURNAL_TENANTS, {
    dispose: (journal) => (this.bytes -= TENANT_OVERHEAD_BYTES + journal.entries.reduce((sum, kept) => sum + kept.bytes, 0)),
  })
  private readonly listeners: JournalListeners
  private bytes = 0

  constructor(
    private readonly size: number,
    maxSubscribers = MAX_SUBSCRIBERS,
    private readonly maxBytes = MAX_JOURNAL_BYTES,
  ) {
    this.listeners = new JournalListeners(maxSubscribers)
  }

  /**
   * Calls `listener` with each entry kept for `tenant` from now on, as it is kept (redacted like
   * the journal). Answers the function that stops it, or undefined when the bound is reached.
   */
  subscribe(tenant: string, listener: JournalListener, options?: SubscribeOptions): (() => void) | undefined {
    return this.listeners.add(tenant, listener, options)
  }

  /** Subscriptions open now, over every tenant. */
  get subscribers(): number {
    return this.listeners.count
  }

  /**
   * Keeps the call; `secret` is never shown in its bodies. `responseText`, the body as already
   * serialized for the wire, spares serializing it again.
   */
  record(tenant: string, call: JournalCall, options?: RecordOptions): void {
    if (this.size === 0) return
    const journal = this.tenants.remember(tenant, () => {
      this.bytes += TENANT_OVERHEAD_BYTES
      return { next: 1, entries: [] }
    })
    const kept = keptOf(journal.next++, call, options)
    journal.entries.push(kept)
    this.bytes += kept.bytes
    if (journal.entries.length > this.size) this.bytes -= journal.entries.shift()!.bytes
    this.keepWithinBytes(journal)
    this.listeners.notify(tenant, kept)
  }

  list(tenant: string, filter: JournalFilter = {}, states = false): JournalEntry[] {
    return selected(this.tenants.peek(tenant)?.entries ?? [], filter, states ? statedEntryOf : entryOf)
  }

  clear(tenant: string): number {
    const journal = this.tenants.peek(tenant)
    if (!journal) return 0
    this.tenants.delete(tenant)
    return journal.entries.length
  }

  /** Drops the oldest entries of the least recent tenants; the entry just kept (in `keep`) stays. */
  private keepWithinBytes(keep: TenantJournal): void {
    if (this.bytes <= this.maxBytes) return // every call comes here: no iterator until the bound is passed
    const emptied: string[] = []
    for (const [tenant, journal] of this.tenants.leastRecentFirst()) {
      if (this.bytes <= this.maxBytes) break
      const floor = journal === keep ? 1 : 0
      while (journal.entries.length > floor && this.bytes > this.maxBytes) this.bytes -= journal.entries.shift()!.bytes
      if (journal.entries.length === 0) emptied.push(tenant)
    }
    for (const tenant of emptied) this.tenants.delete(tenant)
  }
}

export type { JournalCall, JournalEntry, JournalEvent, JournalFilter, JournalListener, RecordOptions, SubscribeOptions } from './journal-port.ts'
