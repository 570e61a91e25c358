import { invalid, refused } from '../rule-broken.ts'
import type { StoredSubscriber } from '../../store/records.ts'
import type { Store } from '../../store/store.ts'
import type { OperationContext } from '../operation-context.ts'
import { presentSubscriberV2 } from '../records/present.ts'

/** GET /v2/subscribers's query (Novu's document; its `limit` bounds are the service's DTO's). */
interface SearchQuery {
  after?: string
  before?: string
  limit?: number
  orderDirection?: 'ASC' | 'DESC'
  orderBy?: string
  includeCursor?: boolean
  email?: string
  name?: string
  phone?: string
  subscriberId?: string
}

/** The live service counts at most this many (docs/behaviour.md §2.4, §11). */
const COUNT_CAP = 50_000
const SORTABLE: ReadonlySet<string> = new Set(['_id', 'createdAt', 'updatedAt'])

/**
 * GET /v2/subscribers: the tenant's subscribers matching the filters (`email`, `phone`, `name` as
 * case-insensitive substrings, `subscriberId` exact), a page of them at a cursor as §2.4 pages
 * channel connections; never enveloped.
 */
export async function searchSubscribers({ store, tenant, input }: OperationContext<{ query: SearchQuery }, Store>) {
  const query = input.query
  const limit = limitOf(query.limit)
  // An empty cursor is none, as the service tests them by truthiness (docs/behaviour.md §1.6).
  const after = query.after || undefined
  const before = query.before || undefined
  if (after && before) throw refused('BOTH_CURSORS', 'Cannot specify both "before" and "after" cursors at the same time.')
  const orderBy = query.orderBy && SORTABLE.has(query.orderBy) ? (query.orderBy as keyof StoredSubscriber) : '_id'
  const sign = query.orderDirection === 'ASC' ? 1 : -1
  const compare = (a: StoredSubscriber, b: StoredSubscriber) => sign * (cmp(a[orderBy], b[orderBy]) || cmp(a._id, b._id))
  const { all, matching } = await store.read(tenant.key, (view) => {
    const every = [...view.subscribers()]
    return { all: every, matching: every.filter(matcherOf(query)).sort(compare) }
  })
  const total = matching.length
  const cursorId = after ?? before
  const cursor = cursorId === undefined ? undefined : all.find((s) => s._id === cursorId)
  if (cursorId !== undefined && !cursor) return { data: [], next: null, previous: null, totalCount: 0, totalCountCapped: false }
  let start = 0
  let end = Math.min(limit, total)
  if (cursor && after) {
    start = matching.findIndex((s) => compare(s, cursor) > 0 || (query.includeCursor === true && s === cursor))
    if (start === -1) start = total
    end = Math.min(start + limit, total)
  } else if (cursor && before) {
    end = matching.findIndex((s) => compare(s, cursor) >= 0)
    if (end === -1) end = total
    if (query.includeCursor === true && matching[end] === cursor) end++
    start = Math.max(0, end - limit)
  }
  const page = matching.slice(start, end)
  return {
    data: page.map((s) => presentSubscriberV2(s, tenant)),
    next: end < total && page.length > 0 ? page.at(-1)!._id : null,
    previous: start > 0 && page.length > 0 ? page[0]!._id : null,
    totalCount: Math.min(total, COUNT_CAP),
    totalCountCapped: total > COUNT_CAP,
  }
}

function limitOf(limit: number | undefined): number {
  if (limit === undefined) return 10
  if (!Number.isInteger(limit)) throw invalid(['limit must be an integer number'])
  if (limit > 100) throw invalid(['limit must not be greater than 100'])
  if (limit < 1) throw invalid(['limit must not be less than 1'])
  return limit
}

const cmp = (a: unknown, b: unknown): number => (String(a ?? '') < String(b ?? '') ? -1 : String(a ?? '') > String(b ?? '') ? 1 : 0)

function matcherOf(query: SearchQuery): (s: StoredSubscriber) => boolean {
  const has = (value: string | null | undefined, part: string | undefined) => !part || (value ?? '').toLowerCase().includes(part.toLowerCase())
  return (s) =>
    (!query.subscriberId || s.subscriberId === query.subscriberId) &&
    has(s.email, query.email) &&
    has(s.phone, query.phone) &&
    has([s.firstName, s.lastName].filter(Boolean).join(' '), query.name)
}
