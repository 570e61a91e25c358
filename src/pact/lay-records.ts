import type { TenantState } from '../store/records.ts'
import type { StateRecords } from './state-name.ts'

/**
 * `state` with `records` laid over it (docs/behaviour.md §9): a record of the same identity (a
 * subscriber's `subscriberId`, any other record's `_id`) replaced where it stands, a new one added
 * at the end.
 */
export function laidOver(state: TenantState, records: StateRecords): TenantState {
  return {
    ...state,
    subscribers: replaced(state.subscribers, records.subscribers, (record) => record.subscriberId),
    integrations: replaced(state.integrations, records.integrations, (record) => record._id),
    channelConnections: replaced(state.channelConnections, records.channelConnections, (record) => record._id),
    messages: replaced(state.messages, records.messages, (record) => record._id),
  }
}

function replaced<T>(current: readonly T[], laid: readonly T[] | undefined, idOf: (record: T) => string): T[] {
  if (laid === undefined || laid.length === 0) return [...current]
  const byId = new Map(laid.map((record) => [idOf(record), record]))
  const kept = current.map((record) => {
    const over = byId.get(idOf(record))
    if (over === undefined) return record
    byId.delete(idOf(record))
    return over
  })
  return [...kept, ...byId.values()]
}
