import { refused } from './rule-broken.ts'
import type { ConnectionCriteria } from '../store/store.ts'
import type { OperationInput, RecordsContext } from './operation-context.ts'
import { presentConnection } from './present.ts'

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
  return {
    data: page.items.map(presentConnection),
    next: page.next,
    previous: page.previous,
    totalCount: page.totalCount,
    totalCountCapped: page.totalCountCapped,
  }
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
