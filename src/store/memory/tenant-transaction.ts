import { pageOf, pageRequestOf } from './connections/connection-page.ts'
import { LayeredMap } from './layered-map.ts'
import type { PutRecords } from './overlay.ts'
import type { StoredIntegration, StoredMessage, StoredSubscriber } from '../records.ts'
import type { ConnectionQuery, TenantTransaction } from '../store.ts'
import type { TenantData } from './tenant-data.ts'

/** Nothing put of a kind. */
const NONE: ReadonlyMap<string, never> = new Map<string, never>()

/** Collects replaced records over a committed TenantData; `commit` builds the next value. */
export class PendingTransaction implements TenantTransaction {
  // Made by the first put of their kind: most calls read, or put one kind of record.
  private subscribers: Map<string, StoredSubscriber> | undefined = undefined
  private integrationChanges: Map<string, StoredIntegration> | undefined = undefined
  private messageChanges: Map<string, StoredMessage> | undefined = undefined

  constructor(private readonly data: TenantData) {}

  connectionPage(query: ConnectionQuery) {
    return pageOf(this.data.connections, pageRequestOf(query))
  }

  subscriber(subscriberId: string) {
    return this.subscribers?.get(subscriberId) ?? this.data.subscribers.get(subscriberId)
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
    return this.messageChanges?.get(id) ?? this.data.messages.get(id)
  }

  *messages() {
    for (const id of this.data.messages.keys()) yield this.message(id) as StoredMessage
    if (this.messageChanges) for (const [id, record] of this.messageChanges) if (!this.data.messages.has(id)) yield record
  }

  putSubscriber(record: StoredSubscriber) {
    ;(this.subscribers ??= new Map()).set(record.subscriberId, record)
  }

  putIntegration(record: StoredIntegration) {
    ;(this.integrationChanges ??= new Map()).set(record._id, record)
  }

  putMessage(record: StoredMessage) {
    ;(this.messageChanges ??= new Map()).set(record._id, record)
  }

  /** The records put, for a store that writes them down. */
  put(): PutRecords {
    return { subscribers: this.subscribers ?? NONE, integrations: this.integrationChanges ?? NONE, messages: this.messageChanges ?? NONE }
  }

  /** The next TenantData, or undefined when nothing was written. */
  commit(): TenantData | undefined {
    const { subscribers, integrationChanges, messageChanges: messages, data } = this
    if (!subscribers && !integrationChanges && !messages) return undefined
    return {
      subscribers: subscribers ? LayeredMap.with(data.subscribers, subscribers) : data.subscribers,
      integrations: integrationChanges ? LayeredMap.with(data.integrations, integrationChanges) : data.integrations,
      messages: messages ? LayeredMap.with(data.messages, messages) : data.messages,
      connections: data.connections,
    }
  }
}
