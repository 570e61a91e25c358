import { refused } from '../rule-broken.ts'
import { Serialized } from '../../answer/answer.ts'
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

/**
 * The page and its JSON, the text joined from each connection's own (made once per version of it):
 * the same bytes as JSON.stringify of the page, in the order of its fields.
 */
function pageAnswer({ items, next, previous, totalCount, totalCountCapped }: ConnectionPage): Serialized {
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
