import { pageOf, pageRequestOf } from './connections/connection-page.ts'
import { changed, LayeredMap } from './layered-map.ts'
import type { PutRecords } from './overlay.ts'
import type { StoredChannelConnection, StoredIntegration, StoredMessage, StoredSubscriber, TenantWorkflow } from '../records.ts'
import type { ConnectionQuery } from '../connection-query.ts'
import type { TenantTransaction } from '../store.ts'
import type { TenantData } from './tenant-data.ts'
import { afterChanges, bytesOfData, withBytes } from './held-bytes.ts'

/** Nothing put of a kind. */
const NONE: ReadonlyMap<string, never> = new Map<string, never>()

/** Records put of one kind, by id; null: the record is deleted. */
type Changes<V> = Map<string, V | null>

/** Collects replaced and deleted records over a committed TenantData; `commit` builds the next value. */
export class PendingTransaction implements TenantTransaction {
  // Made by the first put of their kind: most calls read, or put one kind of record.
  private subscriberChanges: Changes<StoredSubscriber> | undefined = undefined
  private integrationChanges: Map<string, StoredIntegration> | undefined = undefined
  private messageChanges: Changes<StoredMessage> | undefined = undefined
  private connectionChanges: Changes<StoredChannelConnection> | undefined = undefined
  private workflowChanges: Map<string, TenantWorkflow> | undefined = undefined

  constructor(private readonly data: TenantData) {}

  connectionPage(query: ConnectionQuery) {
    // The page a transaction reads is the committed one: no operation lists after it writes.
    return pageOf(this.data.connections, pageRequestOf(query))
  }

  connectionByIdentifier(identifier: string) {
    for (const record of this.connectionChanges?.values() ?? []) if (record?.identifier === identifier) return record
    for (const record of this.data.connections.all()) {
      if (record.identifier === identifier && !this.connectionChanges?.has(record._id)) return record
    }
    return undefined
  }

  subscriber(subscriberId: string) {
    return current(this.subscriberChanges, this.data.subscribers, subscriberId)
  }

  subscribers() {
    return currentValues(this.subscriberChanges, this.data.subscribers)
  }

  integration(id: string) {
    return this.integrationChanges?.get(id) ?? this.data.integrations.get(id)
  }

  *integrations() {
    for (const id of this.data.integrations.keys()) yield this.integration(id) as StoredIntegration
    // Integrations this transaction created, after the committed ones.
    if (this.integrationChanges) for (const [id, record] of this.integrationChanges) if (!this.data.integrations.has(id)) yield record
  }

  message(id: string) {
    return current(this.messageChanges, this.data.messages, id)
  }

  *messages(keep: (message: StoredMessage) => boolean = () => true) {
    for (const record of currentValues(this.messageChanges, this.data.messages)) if (keep(record)) yield record
  }

  workflow(workflowId: string) {
    return this.workflowChanges?.get(workflowId) ?? this.data.workflows.get(workflowId)
  }

  hasWorkflows() {
    return this.data.workflows.size > 0 || (this.workflowChanges?.size ?? 0) > 0
  }

  putWorkflow(record: TenantWorkflow) {
    ;(this.workflowChanges ??= new Map()).set(record.workflowId, record)
  }

  putSubscriber(record: StoredSubscriber) {
    ;(this.subscriberChanges ??= new Map()).set(record.subscriberId, record)
  }

  putIntegration(record: StoredIntegration) {
    ;(this.integrationChanges ??= new Map()).set(record._id, record)
  }

  putMessage(record: StoredMessage) {
    ;(this.messageChanges ??= new Map()).set(record._id, record)
  }

  deleteSubscriber(subscriberId: string) {
    ;(this.subscriberChanges ??= new Map()).set(subscriberId, null)
  }

  deleteMessage(id: string) {
    ;(this.messageChanges ??= new Map()).set(id, null)
  }

  putConnection(record: StoredChannelConnection) {
    ;(this.connectionChanges ??= new Map()).set(record._id, record)
  }

  deleteConnection(id: string) {
    ;(this.connectionChanges ??= new Map()).set(id, null)
  }

  /** The records put (null: deleted), for a store that writes them down. */
  put(): PutRecords {
    return {
      subscribers: this.subscriberChanges ?? NONE,
      integrations: this.integrationChanges ?? NONE,
      messages: this.messageChanges ?? NONE,
      channelConnections: this.connectionChanges ?? NONE,
      workflows: this.workflowChanges ?? NONE,
    }
  }

  /** The next TenantData, or undefined when nothing was written. */
  commit(): TenantData | undefined {
    const { subscriberChanges, integrationChanges, messageChanges, connectionChanges, workflowChanges, data } = this
    if (!subscriberChanges && !integrationChanges && !messageChanges && !connectionChanges && !workflowChanges) return undefined
    let bytes = afterChanges(bytesOfData(data), data.subscribers, subscriberChanges)
    bytes = afterChanges(afterChanges(bytes, data.integrations, integrationChanges), data.messages, messageChanges)
    bytes = afterChanges(afterChanges(bytes, data.connections, connectionChanges), data.workflows, workflowChanges)
    const next: TenantData = {
      subscribers: subscriberChanges ? changed(data.subscribers, subscriberChanges) : data.subscribers,
      integrations: integrationChanges ? LayeredMap.with(data.integrations, integrationChanges) : data.integrations,
      messages: messageChanges ? changed(data.messages, messageChanges) : data.messages,
      connections: connectionChanges ? data.connections.with(connectionChanges) : data.connections,
      workflows: workflowChanges ? LayeredMap.with(data.workflows, workflowChanges) : data.workflows,
    }
    return withBytes(next, bytes)
  }
}

function current<V>(changes: Changes<V> | undefined, base: ReadonlyMap<string, V>, id: string): V | undefined {
  if (changes?.has(id)) return changes.get(id) ?? undefined
  return base.get(id)
}

function* currentValues<V>(changes: Changes<V> | undefined, base: ReadonlyMap<string, V>): Generator<V> {
  for (const [id, record] of base) {
    const now = changes?.has(id) ? changes.get(id) : record
    if (now) yield now
  }
  if (changes) for (const [id, record] of changes) if (record && !base.has(id)) yield record
}
