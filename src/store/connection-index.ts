import type { StoredChannelConnection } from './records.ts'

export type ConnectionOrder = 'createdAt' | 'updatedAt'

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

export const FILTER_FIELDS = ['subscriberId', 'channel', 'providerId', 'integrationIdentifier', 'contextKeys'] as const
export type FilterField = (typeof FILTER_FIELDS)[number]

/** Exact values a connection must have; `contextKeys` as the key of its set (`contextKeysKey`). */
export type ConnectionFilter = Partial<Record<FilterField, string>>

/** Equal sets of context keys have equal keys, whatever their order and repeats. */
export const contextKeysKey = (keys: readonly string[]): string => [...new Set(keys)].sort().join('\u0000')

export const valueOf = (connection: StoredChannelConnection, field: FilterField): string | null | undefined =>
  field === 'contextKeys' ? contextKeysKey(connection.contextKeys) : connection[field]

/** Where the connections a filter can match sit in a sort order, and what is left to check. */
export interface Candidates {
  /** Ascending positions in `sorted(order)`; undefined when every position is a candidate. */
  readonly positions: Uint32Array | undefined
  /** The filter's fields the positions do not already guarantee. */
  readonly residual: ReadonlyArray<readonly [FilterField, string]>
}

const NONE = new Uint32Array(0)
const COUNTS_KEPT = 1000

/**
 * Channel connections by `_id`, in both sort orders (ascending by timestamp, then `_id`), and for
 * every filter field the positions of each value in each order, built on first use. A page is a
 * binary search plus a walk over the smallest list of positions its filters select. Immutable:
 * a change builds a new index, so whatever one computes stays true.
 */
export class ConnectionIndex {
  private readonly postings = new Map<string, ReadonlyMap<string, Uint32Array>>()
  private readonly counts = new Map<string, number>()

  /** Each order is sorted on first use: a million connections take a second per order. */
  private readonly orders: Partial<Record<ConnectionOrder, Ordering>> = {}

  private constructor(
    private readonly byId: ReadonlyMap<string, StoredChannelConnection>,
    private readonly records: readonly StoredChannelConnection[],
  ) {}

  static build(connections: Iterable<StoredChannelConnection>): ConnectionIndex {
    const byId = new Map<string, StoredChannelConnection>()
    for (const connection of connections) byId.set(connection._id, connection)
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

  /** The shortest list of positions among the filter's fields; the other fields are residual. */
  candidates(order: ConnectionOrder, filter: ConnectionFilter): Candidates {
    const wanted = FILTER_FIELDS.flatMap((field) => (filter[field] === undefined ? [] : [[field, filter[field]] as const]))
    let best: { field: FilterField; positions: Uint32Array } | undefined
    for (const [field, value] of wanted) {
      const positions = this.positionsOf(order, field).get(value) ?? NONE
      if (!best || positions.length < best.positions.length) best = { field, positions }
    }
    return { positions: best?.positions, residual: wanted.filter(([field]) => field !== best?.field) }
  }

  /**
   * How many connections match, counting no further than `cap + 1`. Remembered per filter: only
   * the first count of a combination of fields walks a list; one field's count is its list's length.
   */
  count(filter: ConnectionFilter, cap: number): number {
    const key = JSON.stringify(FILTER_FIELDS.map((field) => filter[field] ?? null))
    let count = this.counts.get(key)
    if (count === undefined) {
      const { positions, residual } = this.candidates('createdAt', filter)
      count = positions === undefined ? this.size : residual.length === 0 ? positions.length : this.walkCount(positions, residual, cap)
      if (this.counts.size >= COUNTS_KEPT) this.counts.clear()
      this.counts.set(key, count)
    }
    return Math.min(count, cap + 1)
  }

  /** A new index with these connections added or replaced. */
  with(changes: Iterable<StoredChannelConnection>): ConnectionIndex {
    const byId = new Map(this.byId)
    for (const connection of changes) byId.set(connection._id, connection)
    return ConnectionIndex.build(byId.values())
  }

  private walkCount(positions: Uint32Array, residual: Candidates['residual'], cap: number): number {
    const ordering = this.sorted('createdAt')
    let count = 0
    for (let i = 0; i < positions.length && count <= cap; i++) if (matchesAll(ordering.connection(positions[i]!), residual)) count++
    return count
  }

  private positionsOf(order: ConnectionOrder, field: FilterField): ReadonlyMap<string, Uint32Array> {
    const key = `${order}:${field}`
    let byValue = this.postings.get(key)
    if (!byValue) this.postings.set(key, (byValue = postingsOf(this.sorted(order), field)))
    return byValue
  }
}

export function matchesAll(connection: StoredChannelConnection, fields: Candidates['residual']): boolean {
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
