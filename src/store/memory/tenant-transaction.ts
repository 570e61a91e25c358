import { pageOf, pageRequestOf } from './connections/connection-page.ts'
import { LayeredMap } from './layered-map.ts'
import type { PutRecords } from './overlay.ts'
import type { StoredIntegration, StoredMessage, StoredSubscriber } from '../records.ts'
import type { ConnectionQuery, TenantTransaction } from '../store.ts'
import type { TenantData } from './tenant-data.ts'

/** Collects replaced records over a committed TenantData; `commit` builds the next value. */
export class PendingTransaction implements TenantTransaction {
  private readonly subscribers = new Map<string, StoredSubscriber>()
  private readonly integrationChanges = new Map<string, StoredIntegration>()
  private readonly messages = new Map<string, StoredMessage>()

  constructor(private readonly data: TenantData) {}

  connectionPage(query: ConnectionQuery) {
    return pageOf(this.data.connections, pageRequestOf(query))
  }

  subscriber(subscriberId: string) {
    return this.subscribers.get(subscriberId) ?? this.data.subscribers.get(subscriberId)
  }

  integration(id: string) {
    return this.integrationChanges.get(id) ?? this.data.integrations.get(id)
  }

  *integrations() {
    for (const id of this.data.integrations.keys()) yield this.integration(id) as StoredIntegration
  }

  message(id: string) {
    return this.messages.get(id) ?? this.data.messages.get(id)
  }

  putSubscriber(record: StoredSubscriber) {
    this.subscribers.set(record.subscriberId, record)
  }

  putIntegration(record: StoredIntegration) {
    if (!this.data.integrations.has(record._id)) throw new Error(`no integration ${record._id} to replace`)
    this.integrationChanges.set(record._id, record)
  }

  putMessage(record: StoredMessage) {
    this.messages.set(record._id, record)
  }

  /** The records put, for a store that writes them down. */
  put(): PutRecords {
    return { subscribers: this.subscribers, integrations: this.integrationChanges, messages: this.messages }
  }

  /** The next TenantData, or undefined when nothing was written. */
  commit(): TenantData | undefined {
    const changed = this.subscribers.size + this.integrationChanges.size + this.messages.size > 0
    if (!changed) return undefined
    return {
      subscribers: LayeredMap.with(this.data.subscribers, this.subscribers),
      integrations: LayeredMap.with(this.data.integrations, this.integrationChanges),
      messages: LayeredMap.with(this.data.messages, this.messages),
      connections: this.data.connections,
    }
  }
}
