import { ConnectionIndex } from './connection-index.ts'
import type { StoredIntegration, StoredMessage, StoredSubscriber, TenantState } from './records.ts'
import type { StateCounts } from './store.ts'

/**
 * One tenant's records. Immutable and shared: tenants start from the same seeded value, a write
 * replaces the collections it touches, and a snapshot is just a reference.
 */
export interface TenantData {
  /** By `subscriberId`. */
  readonly subscribers: ReadonlyMap<string, StoredSubscriber>
  /** By `_id`. */
  readonly integrations: ReadonlyMap<string, StoredIntegration>
  /** By `_id`. */
  readonly messages: ReadonlyMap<string, StoredMessage>
  readonly connections: ConnectionIndex
}

export function tenantDataFromState(state: TenantState): TenantData {
  return {
    subscribers: new Map(state.subscribers.map((s) => [s.subscriberId, s])),
    integrations: new Map(state.integrations.map((i) => [i._id, i])),
    messages: new Map(state.messages.map((m) => [m._id, m])),
    connections: ConnectionIndex.build(state.channelConnections),
  }
}

export function countsOf(data: TenantData): StateCounts {
  return {
    subscribers: data.subscribers.size,
    integrations: data.integrations.size,
    channelConnections: data.connections.size,
    messages: data.messages.size,
  }
}

export function stateFromTenantData(data: TenantData): TenantState {
  return {
    subscribers: [...data.subscribers.values()],
    integrations: [...data.integrations.values()],
    channelConnections: [...data.connections.all()],
    messages: [...data.messages.values()],
  }
}
