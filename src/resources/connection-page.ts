import { matchesAll, type Candidates, type ConnectionFilter, type ConnectionIndex, type ConnectionOrder } from '../store/connection-index.ts'
import type { StoredChannelConnection } from '../store/records.ts'

export const TOTAL_COUNT_CAP = 50_000

export interface PageRequest {
  readonly orderBy: ConnectionOrder
  readonly descending: boolean
  readonly limit: number
  readonly after?: string | undefined
  readonly before?: string | undefined
  readonly includeCursor: boolean
  readonly filter: ConnectionFilter
}

export interface Page {
  readonly items: StoredChannelConnection[]
  readonly next: string | null
  readonly previous: string | null
  readonly totalCount: number
  readonly totalCountCapped: boolean
}

const EMPTY: Page = { items: [], next: null, previous: null, totalCount: 0, totalCountCapped: false }

/** The candidates of one request in its direction: position `i` of the walk, and its entry. */
interface Walk {
  readonly length: number
  /** Position in the full order, counted in the walk's direction; increases with `i`. */
  position(i: number): number
  connection(i: number): StoredChannelConnection
  matches(i: number): boolean
}

/**
 * One page of connections in the requested order. The walk runs over the candidates the index
 * selects for the filter (every connection when there is none), read backwards for DESC, so no
 * order is ever copied or re-sorted. A cursor is the `_id` of a connection; it marks its sort
 * position even when the filter excludes it.
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
  const picks = back ? walkBack(walk, start, request.limit) : walkForward(walk, start, request.limit)
  const count = index.count(request.filter, TOTAL_COUNT_CAP)
  const totals = { totalCount: Math.min(count, TOTAL_COUNT_CAP), totalCountCapped: count > TOTAL_COUNT_CAP }
  if (picks.length === 0) return { ...EMPTY, ...totals }
  const first = picks[0]!
  const last = picks[picks.length - 1]!
  return {
    items: picks.map((i) => walk.connection(i)),
    next: anyMatch(walk, last + 1, 1) ? walk.connection(last)._id : null,
    previous: anyMatch(walk, first - 1, -1) ? walk.connection(first)._id : null,
    ...totals,
  }
}

function walkOf(index: ConnectionIndex, request: PageRequest): Walk {
  const ordering = index.sorted(request.orderBy)
  const n = ordering.length
  const { positions, residual }: Candidates = index.candidates(request.orderBy, request.filter)
  const length = positions?.length ?? n
  const ascending = positions ? (i: number) => positions[i]! : (i: number) => i
  const at = request.descending ? (i: number) => n - 1 - ascending(length - 1 - i) : ascending
  const connection = request.descending ? (i: number) => ordering.connection(n - 1 - at(i)) : (i: number) => ordering.connection(at(i))
  return {
    length,
    position: at,
    connection,
    matches: residual.length === 0 ? () => true : (i) => matchesAll(connection(i), residual),
  }
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

function walkForward(walk: Walk, start: number, limit: number): number[] {
  const picks: number[] = []
  for (let i = start; i < walk.length && picks.length < limit; i++) if (walk.matches(i)) picks.push(i)
  return picks
}

function walkBack(walk: Walk, start: number, limit: number): number[] {
  const picks: number[] = []
  for (let i = start; i >= 0 && picks.length < limit; i--) if (walk.matches(i)) picks.push(i)
  return picks.reverse()
}

function anyMatch(walk: Walk, from: number, step: 1 | -1): boolean {
  for (let i = from; i >= 0 && i < walk.length; i += step) if (walk.matches(i)) return true
  return false
}
