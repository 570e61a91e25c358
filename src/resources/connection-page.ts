import { compareEntries, type ConnectionIndex, type ConnectionOrder, type SortEntry } from '../store/connection-index.ts'
import type { StoredChannelConnection } from '../store/records.ts'

export const TOTAL_COUNT_CAP = 50_000

export interface PageRequest {
  readonly orderBy: ConnectionOrder
  readonly descending: boolean
  readonly limit: number
  readonly after?: string
  readonly before?: string
  readonly includeCursor: boolean
  readonly matches: (connection: StoredChannelConnection) => boolean
}

export interface Page {
  readonly items: StoredChannelConnection[]
  readonly next: string | null
  readonly previous: string | null
  readonly totalCount: number
  readonly totalCountCapped: boolean
}

const EMPTY: Page = { items: [], next: null, previous: null, totalCount: 0, totalCountCapped: false }

/**
 * One page of connections in the requested order. The walk runs over the index's ascending array
 * through `at(i)`, which reads it backwards for DESC, so no order is ever copied or re-sorted.
 * A cursor is the `_id` of a connection; it marks its sort position even when filters exclude it.
 */
export function pageOf(index: ConnectionIndex, request: PageRequest): Page {
  const entries = index.sorted(request.orderBy)
  const n = entries.length
  const at = request.descending ? (i: number) => entries[n - 1 - i]! : (i: number) => entries[i]!
  const cursorId = request.after ?? request.before
  let position = 0
  if (cursorId !== undefined) {
    const found = positionOf(index, entries, cursorId, request.orderBy)
    if (found === undefined) return EMPTY
    position = request.descending ? n - 1 - found : found
  }
  const picks = request.before !== undefined ? walkBack(request, at, position) : walkForward(request, at, position, n)
  if (picks.length === 0) return { ...EMPTY, ...countOf(index, request) }
  const first = picks[0]!
  const last = picks[picks.length - 1]!
  return {
    items: picks.map((p) => at(p).connection),
    next: anyMatch(request, at, last + 1, n, 1) ? at(last).id : null,
    previous: anyMatch(request, at, first - 1, n, -1) ? at(first).id : null,
    ...countOf(index, request),
  }
}

type At = (i: number) => SortEntry

function walkForward(request: PageRequest, at: At, cursor: number, n: number): number[] {
  const start = request.after === undefined || request.includeCursor ? cursor : cursor + 1
  const picks: number[] = []
  for (let i = start; i < n && picks.length < request.limit; i++) if (request.matches(at(i).connection)) picks.push(i)
  return picks
}

function walkBack(request: PageRequest, at: At, cursor: number): number[] {
  const start = request.includeCursor ? cursor : cursor - 1
  const picks: number[] = []
  for (let i = start; i >= 0 && picks.length < request.limit; i--) if (request.matches(at(i).connection)) picks.push(i)
  return picks.reverse()
}

function anyMatch(request: PageRequest, at: At, from: number, n: number, step: 1 | -1): boolean {
  for (let i = from; i >= 0 && i < n; i += step) if (request.matches(at(i).connection)) return true
  return false
}

function countOf(index: ConnectionIndex, request: PageRequest) {
  let count = 0
  for (const connection of index.all()) {
    if (request.matches(connection) && ++count > TOTAL_COUNT_CAP) break
  }
  return { totalCount: Math.min(count, TOTAL_COUNT_CAP), totalCountCapped: count > TOTAL_COUNT_CAP }
}

/** The cursor's index in the ascending array, found by binary search on its sort key. */
function positionOf(index: ConnectionIndex, entries: readonly SortEntry[], id: string, order: ConnectionOrder) {
  const connection = index.get(id)
  if (!connection) return undefined
  const target = { key: Date.parse(connection[order]), id }
  let low = 0
  let high = entries.length - 1
  while (low <= high) {
    const middle = (low + high) >>> 1
    const comparison = compareEntries(entries[middle]!, target)
    if (comparison === 0) return middle
    if (comparison < 0) low = middle + 1
    else high = middle - 1
  }
  return undefined
}
