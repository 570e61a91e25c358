import { badRequest } from '../http/api-error.ts'
import type { StoredChannelConnection } from '../store/records.ts'
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
      matches: matcherFor(query),
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
function matcherFor(query: Query): (connection: StoredChannelConnection) => boolean {
  const exact = (['subscriberId', 'channel', 'providerId', 'integrationIdentifier'] as const).filter(
    (name) => query[name] !== undefined,
  )
  const wantedKeys = query.contextKeys === undefined ? undefined : new Set(query.contextKeys.filter((k) => k !== ''))
  return (connection) => {
    for (const name of exact) if (connection[name] !== query[name]) return false
    return wantedKeys === undefined || sameSet(wantedKeys, connection.contextKeys)
  }
}

function sameSet(wanted: ReadonlySet<string>, actual: readonly string[]): boolean {
  const have = new Set(actual)
  if (have.size !== wanted.size) return false
  for (const key of wanted) if (!have.has(key)) return false
  return true
}
