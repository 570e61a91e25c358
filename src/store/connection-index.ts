import type { StoredChannelConnection } from './records.ts'

export type ConnectionOrder = 'createdAt' | 'updatedAt'

/** One position in a sort order: the timestamp as a number, then the `_id` to break ties. */
export interface SortEntry {
  readonly key: number
  readonly id: string
  readonly connection: StoredChannelConnection
}

/**
 * Channel connections by `_id` and in both sort orders (ascending by timestamp, then `_id`), so a
 * page is a binary search plus a short walk. Immutable: a change builds a new index.
 */
export class ConnectionIndex {
  private constructor(
    private readonly byId: ReadonlyMap<string, StoredChannelConnection>,
    private readonly orders: Readonly<Record<ConnectionOrder, readonly SortEntry[]>>,
  ) {}

  static build(connections: Iterable<StoredChannelConnection>): ConnectionIndex {
    const byId = new Map<string, StoredChannelConnection>()
    for (const connection of connections) byId.set(connection._id, connection)
    return new ConnectionIndex(byId, { createdAt: sortBy(byId, 'createdAt'), updatedAt: sortBy(byId, 'updatedAt') })
  }

  get size(): number {
    return this.byId.size
  }

  get(id: string): StoredChannelConnection | undefined {
    return this.byId.get(id)
  }

  all(): IterableIterator<StoredChannelConnection> {
    return this.byId.values()
  }

  sorted(order: ConnectionOrder): readonly SortEntry[] {
    return this.orders[order]
  }

  /** A new index with these connections added or replaced. */
  with(changes: Iterable<StoredChannelConnection>): ConnectionIndex {
    const byId = new Map(this.byId)
    for (const connection of changes) byId.set(connection._id, connection)
    return ConnectionIndex.build(byId.values())
  }
}

function sortBy(byId: ReadonlyMap<string, StoredChannelConnection>, order: ConnectionOrder): SortEntry[] {
  const entries: SortEntry[] = []
  for (const connection of byId.values()) {
    entries.push({ key: Date.parse(connection[order]), id: connection._id, connection })
  }
  return entries.sort(compareEntries)
}

export function compareEntries(a: { key: number; id: string }, b: { key: number; id: string }): number {
  if (a.key !== b.key) return a.key - b.key
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0
}
