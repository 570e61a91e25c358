import { pageOf, pageRequestOf } from './connections/connection-page.ts'
import { changed, LayeredMap } from './layered-map.ts'
import type { PutRecords } from './overlay.ts'
import type { StoredIntegration, StoredMessage, StoredSubscriber, TenantWorkflow } from '../records.ts'
import type { ConnectionQuery, TenantTransaction } from '../store.ts'
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
  private workflowChanges: Map<string, TenantWorkflow> | undefined = undefined

  constructor(private readonly data: TenantData) {}

  connectionPage(query: ConnectionQuery) {
    return pageOf(this.data.connections, pageRequestOf(query))
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
  }

  message(id: string) {
    return current(this.messageChanges, this.data.messages, id)
  }

  messages() {
    return currentValues(this.messageChanges, this.data.messages)
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
    if (!this.data.integrations.has(record._id)) throw new Error(`no integration ${record._id} to replace`)
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

  /** The records put (null: deleted), for a store that writes them down. */
  put(): PutRecords {
    return {
      subscribers: this.subscriberChanges ?? NONE,
      integrations: this.integrationChanges ?? NONE,
      messages: this.messageChanges ?? NONE,
      workflows: this.workflowChanges ?? NONE,
    }
  }

  /** The next TenantData, or undefined when nothing was written. */
  commit(): TenantData | undefined {
    const { subscriberChanges, integrationChanges, messageChanges, workflowChanges, data } = this
    if (!subscriberChanges && !integrationChanges && !messageChanges && !workflowChanges) return undefined
    let bytes = bytesOfData(data)
    bytes = afterChanges(bytes, data.subscribers, subscriberChanges)
    bytes = afterChanges(bytes, data.integrations, integrationChanges)
    bytes = afterChanges(bytes, data.messages, messageChanges)
    bytes = afterChanges(bytes, data.workflows, workflowChanges)
    const next: TenantData = {
      subscribers: subscriberChanges ? changed(data.subscribers, subscriberChanges) : data.subscribers,
      integrations: integrationChanges ? LayeredMap.with(data.integrations, integrationChanges) : data.integrations,
      messages: messageChanges ? changed(data.messages, messageChanges) : data.messages,
      connections: data.connections,
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
