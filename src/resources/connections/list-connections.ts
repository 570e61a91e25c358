import { refused } from '../rule-broken.ts'
import { Serialized } from '../../answer/answer.ts'
import { Lru } from '../../lib/lru.ts'
import type { StoredChannelConnection } from '../../store/records.ts'
import type { ConnectionCriteria, ConnectionPage } from '../../store/store.ts'
import type { OperationInput, RecordsContext } from '../operation-context.ts'
import { shownConnection, type ShownConnection } from '../records/present.ts'

type Query = OperationInput<'listChannelConnections'>['query']

export async function listChannelConnections({ store, tenant, input }: RecordsContext<OperationInput<'listChannelConnections'>>) {
  const query = input.query
  // An empty cursor is none: the live service tests them by truthiness (docs/behaviour.md §1.6).
  const after = query.after || undefined
  const before = query.before || undefined
  if (after !== undefined && before !== undefined) {
    throw refused('BOTH_CURSORS', 'Cannot specify both "before" and "after" cursors at the same time.')
  }
  const page = await store.read(tenant.key, (view) =>
    view.connectionPage({
      orderBy: query.orderBy,
      descending: query.orderDirection === 'DESC',
      limit: query.limit,
      after,
      before,
      includeCursor: query.includeCursor,
      criteria: criteriaOf(query),
    }),
  )
  return pageAnswer(page)
}

/** A page answered lately, kept with the page it was made from. */
interface AnsweredPage {
  readonly page: ConnectionPage
  readonly answer: Serialized
}

/**
 * Pages answered lately, by their first connection, the least recently answered forgotten first:
 * a client lists the same page again and again, and a page's answer is a hundred connections' JSON
 * at most, so what they hold is bounded.
 */
const answeredPages = new Lru<AnsweredPage, StoredChannelConnection>(64)

/**
 * The page's answer, made once for the same connections, cursors and totals (docs/decisions.md,
 * 2026-11-28): a stored connection is never changed, a write stores a new one, so the same
 * records make the same answer. The same answer object is then the one the response check passed
 * already (core/answers/response-check.ts).
 */
function pageAnswer(page: ConnectionPage): Serialized {
  const first = page.items[0]
  if (first === undefined) return madeAnswer(page)
  const kept = answeredPages.get(first)
  if (kept !== undefined && samePage(kept.page, page)) return kept.answer
  const answer = madeAnswer(page)
  answeredPages.set(first, { page, answer })
  return answer
}

function samePage(a: ConnectionPage, b: ConnectionPage): boolean {
  if (a.items.length !== b.items.length || a.next !== b.next || a.previous !== b.previous || a.totalCount !== b.totalCount || a.totalCountCapped !== b.totalCountCapped) return false
  for (let i = 0; i < a.items.length; i++) if (a.items[i] !== b.items[i]) return false
  return true
}

/**
 * The page and its JSON, the text joined from each connection's own (made once per version of it):
 * the same bytes as JSON.stringify of the page, in the order of its fields.
 */
function madeAnswer({ items, next, previous, totalCount, totalCountCapped }: ConnectionPage): Serialized {
  const data: ShownConnection['value'][] = []
  let text = '{"data":['
  for (let i = 0; i < items.length; i++) {
    const shown = shownConnection(items[i]!)
    data.push(shown.value)
    text += i === 0 ? shown.text : `,${shown.text}`
  }
  text += `],"next":${JSON.stringify(next)},"previous":${JSON.stringify(previous)},"totalCount":${JSON.stringify(totalCount)},"totalCountCapped":${JSON.stringify(totalCountCapped)}}`
  return new Serialized({ data, next, previous, totalCount, totalCountCapped }, text)
}

/**
 * Exact-match filters; an empty `subscriberId` or `integrationIdentifier` is no filter.
 * `contextKeys` compares as a set, and one blank value means "no keys". `shared` connections have
 * no subscriber, whatever `subscriberId` says (docs/behaviour.md §2.4).
 */
function criteriaOf(query: Query): ConnectionCriteria {
  const filter: ConnectionCriteria = {}
  if (query.channel !== undefined) filter.channel = query.channel
  if (query.providerId !== undefined) filter.providerId = query.providerId
  if (query.integrationIdentifier) filter.integrationIdentifier = query.integrationIdentifier
  if (query.connectionMode !== undefined) filter.connectionMode = query.connectionMode
  if (query.subscriberId && query.connectionMode !== 'shared') filter.subscriberId = query.subscriberId
  if (query.contextKeys !== undefined) filter.contextKeys = query.contextKeys.filter((key) => key !== '')
  return filter
}
