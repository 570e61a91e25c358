import type { StoredChannelConnection } from '../../records.ts'

import type { ConnectionOrder } from '../../connection-query.ts'

export type { ConnectionOrder } from '../../connection-query.ts'

/**
 * The connections in one order: ascending by the timestamp, then by `_id` to break ties. Typed
 * arrays rather than an object per position: a tenant may hold a million connections.
 */
export interface Ordering {
  readonly length: number
  connection(position: number): StoredChannelConnection
  /** Where this connection sits, by binary search on its timestamp and `_id`. */
  positionOf(connection: StoredChannelConnection): number | undefined
}

export const FILTER_FIELDS = ['subscriberId', 'channel', 'providerId', 'integrationIdentifier', 'contextKeys', 'connectionMode'] as const
export type FilterField = (typeof FILTER_FIELDS)[number]

/** Exact values a connection must have; `contextKeys` as the key of its set (`contextKeysKey`). */
export type ConnectionFilter = Partial<Record<FilterField, string>>

/** Equal sets of context keys have equal keys, whatever their order and repeats. */
export const contextKeysKey = (keys: readonly string[]): string => [...new Set(keys)].sort().join('\u0000')

export function valueOf(connection: StoredChannelConnection, field: FilterField): string | null | undefined {
  if (field === 'contextKeys') return contextKeysKey(connection.contextKeys)
  // A connection with no subscriber is shared (docs/behaviour.md §2.4).
  if (field === 'connectionMode') return connection.subscriberId == null ? 'shared' : 'subscriber'
  return connection[field]
}

const NONE = new Uint32Array(0)
/** Positions remembered for combined filters, in all: 8M positions are 32 MB. */
const MATCH_POSITIONS_KEPT = 8_000_000
/** Combined filters remembered, and the longest kept: their keys are the client's query values. */
const FILTERS_KEPT = 10_000
const LONGEST_FILTER_KEPT = 1024

/**
 * Channel connections by `_id`, in both sort orders (ascending by timestamp, then `_id`), and for
 * every filter field the positions of each value in each order, built on first use; a filter of
 * several fields has its exact positions remembered once computed. A page is then a binary search
 * and a slice, whatever the tenant's size. Immutable: a change builds a new index, so whatever one
 * computes stays true.
 */
export class ConnectionIndex {
  private readonly postings = new Map<string, ReadonlyMap<string, Uint32Array>>()
  private readonly combined = new Map<string, Uint32Array>()
  private combinedPositions = 0

  /** Each order is sorted on first use: a million connections take a second per order. */
  private readonly orders: Partial<Record<ConnectionOrder, Ordering>> = {}

  private constructor(
    private readonly byId: ReadonlyMap<string, StoredChannelConnection>,
    private readonly records: readonly StoredChannelConnection[],
  ) {}

  static build(connections: Iterable<StoredChannelConnection>): ConnectionIndex {
    const byId = new Map<string, StoredChannelConnection>()
    for (const connection of connections) byId.set(connection._id, connection)
    return ConnectionIndex.of(byId)
  }

  /** The index of connections already keyed by `_id` (the map is the index's from then on). */
  static of(byId: ReadonlyMap<string, StoredChannelConnection>): ConnectionIndex {
    return new ConnectionIndex(byId, [...byId.values()])
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

  sorted(order: ConnectionOrder): Ordering {
    return (this.orders[order] ??= orderingOf(this.records, order))
  }

  /**
   * Ascending positions in `sorted(order)` of the connections that match the filter; undefined
   * when it has no field, so every position matches. One field reads its list; several walk the
   * shortest of theirs once and keep the result.
   */
  matching(order: ConnectionOrder, filter: ConnectionFilter): Uint32Array | undefined {
    if (!FILTER_FIELDS.some((field) => filter[field] !== undefined)) return undefined // the usual list call: nothing made for it
    const wanted = FILTER_FIELDS.flatMap((field) => (filter[field] === undefined ? [] : [[field, filter[field]] as const]))
    const lists = wanted.map(([field, value]) => this.positionsOf(order, field).get(value) ?? NONE)
    if (wanted.length === 1) return lists[0]
    const key = `${order}${JSON.stringify(FILTER_FIELDS.map((field) => filter[field] ?? null))}`
    let positions = this.combined.get(key)
    if (!positions) {
      positions = this.intersect(order, lists, wanted)
      this.remember(key, positions)
    }
    return positions
  }

  /** How many connections match the filter. */
  count(filter: ConnectionFilter): number {
    return this.matching('createdAt', filter)?.length ?? this.size
  }

  /**
   * A new index with these connections added or replaced, by `_id` (null: removed). Built anew:
   * connections are written one at a time, by their own operations, never by the five.
   */
  with(changes: ReadonlyMap<string, StoredChannelConnection | null>): ConnectionIndex {
    if (changes.size === 0) return this
    const byId = new Map(this.byId)
    for (const [id, connection] of changes) {
      if (connection === null) byId.delete(id)
      else byId.set(id, connection)
    }
    return ConnectionIndex.of(byId)
  }

  private intersect(order: ConnectionOrder, lists: Uint32Array[], wanted: ReadonlyArray<readonly [FilterField, string]>): Uint32Array {
    const shortest = lists.reduce((best, list) => (list.length < best.length ? list : best))
    const ordering = this.sorted(order)
    const matches: number[] = []
    for (const position of shortest) if (matchesAll(ordering.connection(position), wanted)) matches.push(position)
    return Uint32Array.from(matches)
  }

  private remember(key: string, positions: Uint32Array): void {
    if (key.length > LONGEST_FILTER_KEPT) return
    if (this.combinedPositions + positions.length > MATCH_POSITIONS_KEPT || this.combined.size >= FILTERS_KEPT) {
      this.combined.clear()
      this.combinedPositions = 0
    }
    this.combined.set(key, positions)
    this.combinedPositions += positions.length
  }

  private positionsOf(order: ConnectionOrder, field: FilterField): ReadonlyMap<string, Uint32Array> {
    const key = `${order}:${field}`
    let byValue = this.postings.get(key)
    if (!byValue) this.postings.set(key, (byValue = postingsOf(this.sorted(order), field)))
    return byValue
  }
}

function matchesAll(connection: StoredChannelConnection, fields: ReadonlyArray<readonly [FilterField, string]>): boolean {
  for (const [field, value] of fields) if (valueOf(connection, field) !== value) return false
  return true
}

function postingsOf(ordering: Ordering, field: FilterField): Map<string, Uint32Array> {
  const lists = new Map<string, number[]>()
  for (let position = 0; position < ordering.length; position++) {
    const value = valueOf(ordering.connection(position), field)
    if (value === undefined || value === null) continue
    const list = lists.get(value)
    if (list) list.push(position)
    else lists.set(value, [position])
  }
  return new Map([...lists].map(([value, list]) => [value, Uint32Array.from(list)]))
}

function orderingOf(records: readonly StoredChannelConnection[], order: ConnectionOrder): Ordering {
  const keyOf = new Float64Array(records.length)
  records.forEach((connection, i) => (keyOf[i] = Date.parse(connection[order])))
  const compare = (a: number, b: number) => keyOf[a]! - keyOf[b]! || compareIds(records[a]!._id, records[b]!._id)
  const sorted = new Uint32Array(records.length).map((_, i) => i).sort(compare)
  const at = (position: number) => records[sorted[position]!]!
  return {
    length: records.length,
    connection: at,
    positionOf(connection) {
      const key = Date.parse(connection[order])
      let low = 0
      let high = records.length - 1
      while (low <= high) {
        const middle = (low + high) >>> 1
        const candidate = sorted[middle]!
        const comparison = keyOf[candidate]! - key || compareIds(records[candidate]!._id, connection._id)
        if (comparison === 0) return middle
        if (comparison < 0) low = middle + 1
        else high = middle - 1
      }
      return undefined
    },
  }
}

const compareIds = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)
