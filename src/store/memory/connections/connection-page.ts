import { contextKeysKey, type ConnectionFilter, type ConnectionIndex } from './connection-index.ts'
import type { StoredChannelConnection } from '../../records.ts'
import type { ConnectionCriteria, ConnectionPage, ConnectionQuery } from '../../connection-query.ts'

export const TOTAL_COUNT_CAP = 50_000

/** The port's query, its criteria as the index filters them. */
export interface PageRequest extends Omit<ConnectionQuery, 'criteria'> {
  readonly filter: ConnectionFilter
}

export type Page = ConnectionPage

/** The port's query, as the index filters: context keys as the key of their set. */
export function pageRequestOf(query: ConnectionQuery): PageRequest {
  // Named field by field: an object rest (`{ criteria, ...query }`) is a call into V8's runtime, on every list call.
  const { orderBy, descending, limit, after, before, includeCursor, criteria } = query
  return { orderBy, descending, limit, after, before, includeCursor, filter: indexFilterOf(criteria) }
}

function indexFilterOf(criteria: ConnectionCriteria): ConnectionFilter {
  const { contextKeys } = criteria
  if (contextKeys === undefined) return criteria as Omit<ConnectionCriteria, 'contextKeys'>
  return { ...criteria, contextKeys: contextKeysKey(contextKeys) }
}

const EMPTY: Page = { items: [], next: null, previous: null, totalCount: 0, totalCountCapped: false }

/** The matching connections of one request in its direction: the `i`th, and its sort position. */
interface Walk {
  readonly length: number
  /** Position in the full order, counted in the walk's direction; increases with `i`. */
  position(i: number): number
  connection(i: number): StoredChannelConnection
}

/**
 * One page of connections in the requested order. The walk runs over the positions the index
 * holds for the filter (every connection when there is none), read backwards for DESC, so no
 * order is ever copied or re-sorted, and a page is a binary search and a slice. A cursor is the
 * `_id` of a connection; it marks its sort position even when the filter excludes it.
 */
export function pageOf(index: ConnectionIndex, request: PageRequest): Page {
  const walk = walkOf(index, request)
  let start = 0
  let back = false
  const cursorId = request.after ?? request.before
  if (cursorId !== undefined) {
    const connection = index.get(cursorId)
    const found = connection && index.sorted(request.orderBy).positionOf(connection)
    if (found === undefined) return EMPTY
    const cursor = request.descending ? index.size - 1 - found : found
    back = request.before !== undefined
    const from = back ? (request.includeCursor ? cursor + 1 : cursor) : request.includeCursor ? cursor : cursor + 1
    start = firstAtOrAfter(walk, from) - (back ? 1 : 0)
  }
  const [first, end] = back ? [Math.max(0, start - request.limit + 1), start + 1] : [start, Math.min(walk.length, start + request.limit)]
  const count = index.count(request.filter)
  const totals = { totalCount: Math.min(count, TOTAL_COUNT_CAP), totalCountCapped: count > TOTAL_COUNT_CAP }
  if (first >= end) return { ...EMPTY, ...totals }
  const items: StoredChannelConnection[] = []
  for (let i = first; i < end; i++) items.push(walk.connection(i))
  return {
    items,
    next: end < walk.length ? walk.connection(end - 1)._id : null,
    previous: first > 0 ? walk.connection(first)._id : null,
    ...totals,
  }
}

function walkOf(index: ConnectionIndex, request: PageRequest): Walk {
  const ordering = index.sorted(request.orderBy)
  const n = ordering.length
  const positions = index.matching(request.orderBy, request.filter)
  const length = positions?.length ?? n
  const ascending = positions ? (i: number) => positions[i]! : (i: number) => i
  const at = request.descending ? (i: number) => n - 1 - ascending(length - 1 - i) : ascending
  return { length, position: at, connection: (i) => ordering.connection(request.descending ? n - 1 - at(i) : at(i)) }
}

/** The first walk index whose position is at or after `position` (binary search). */
function firstAtOrAfter(walk: Walk, position: number): number {
  let low = 0
  let high = walk.length
  while (low < high) {
    const middle = (low + high) >>> 1
    if (walk.position(middle) < position) low = middle + 1
    else high = middle
  }
  return low
}
