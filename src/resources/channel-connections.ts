import { badRequest } from '../http/api-error.ts'
import { contextKeysKey, type ConnectionFilter } from '../store/connection-index.ts'
import { pageOf } from './connection-page.ts'
import type { OperationContext, OperationInput } from './operation-context.ts'
import { presentConnection } from './present.ts'

type Query = OperationInput<'listChannelConnections'>['query']

export async function listChannelConnections({ store, tenant, input }: OperationContext<OperationInput<'listChannelConnections'>>) {
  const query = input.query
  if (query.after !== undefined && query.before !== undefined) {
    throw badRequest('BOTH_CURSORS', 'Cannot specify both "before" and "after" cursors at the same time.')
  }
  const page = await store.read(tenant.key, (view) =>
    pageOf(view.connections, {
      orderBy: query.orderBy ?? 'createdAt',
      descending: (query.orderDirection ?? 'DESC') === 'DESC',
      limit: query.limit ?? 10,
      after: query.after,
      before: query.before,
      includeCursor: query.includeCursor ?? false,
      filter: filterOf(query),
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

/** Exact-match filters; `contextKeys` compares as a set, and one blank value means "no keys". */
function filterOf(query: Query): ConnectionFilter {
  const filter: ConnectionFilter = {}
  for (const name of ['subscriberId', 'channel', 'providerId', 'integrationIdentifier'] as const) {
    if (query[name] !== undefined) filter[name] = query[name]
  }
  if (query.contextKeys !== undefined) filter.contextKeys = contextKeysKey(query.contextKeys.filter((key) => key !== ''))
  return filter
}
