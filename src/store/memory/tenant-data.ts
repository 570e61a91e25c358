import { inSlices, toEnd, type Steps } from '../../lib/slices.ts'
import { ConnectionIndex } from './connections/connection-index.ts'
import type { StoredIntegration, StoredMessage, StoredSubscriber, TenantState, TenantWorkflow } from '../records.ts'
import type { StateCounts } from '../store.ts'

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
  /** By `workflowId`; empty for a tenant that has none (every trigger's name accepted). */
  readonly workflows: ReadonlyMap<string, TenantWorkflow>
}

export function tenantDataFromState(state: TenantState): TenantData {
  return toEnd(tenantDataSteps(state))
}

/** The same, indexed a slice at a time between turns of the event loop: for a large tenant made while the server serves others. */
export function tenantDataInSlices(state: TenantState): Promise<TenantData> {
  return inSlices(tenantDataSteps(state))
}

function* tenantDataSteps(state: TenantState): Steps<TenantData> {
  return {
    subscribers: yield* mapSteps(state.subscribers, (s) => s.subscriberId),
    integrations: yield* mapSteps(state.integrations, (i) => i._id),
    messages: yield* mapSteps(state.messages, (m) => m._id),
    connections: ConnectionIndex.of(yield* mapSteps(state.channelConnections, (c) => c._id)),
    workflows: yield* mapSteps(state.workflows ?? [], (w) => w.workflowId),
  }
}

function* mapSteps<V>(records: readonly V[], idOf: (record: V) => string): Steps<Map<string, V>> {
  const map = new Map<string, V>()
  for (const record of records) yield void map.set(idOf(record), record)
  return map
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
    // Only a tenant that has workflows shows them (docs/behaviour.md §11).
    ...(data.workflows.size > 0 ? { workflows: [...data.workflows.values()] } : {}),
  }
}
