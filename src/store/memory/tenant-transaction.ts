import { pageOf, pageRequestOf } from './connections/connection-page.ts'
import { changed, LayeredMap } from './layered-map.ts'
import type { PutRecords } from './overlay.ts'
import type { StoredChannelConnection, StoredIntegration, StoredMessage, StoredSubscriber } from '../records.ts'
import type { ConnectionQuery, TenantTransaction } from '../store.ts'
import type { TenantData } from './tenant-data.ts'
import { afterChanges, bytesOfData, withBytes } from './held-bytes.ts'

/** Nothing put of a kind. */
const NONE: ReadonlyMap<string, never> = new Map<string, never>()

/** Collects replaced (and removed: null) records over a committed TenantData; `commit` builds the next value. */
export class PendingTransaction implements TenantTransaction {
  // Made by the first put of their kind: most calls read, or put one kind of record.
  private subscribers: Map<string, StoredSubscriber> | undefined = undefined
  private integrationChanges: Map<string, StoredIntegration> | undefined = undefined
  private messageChanges: Map<string, StoredMessage | null> | undefined = undefined
  private connectionChanges: Map<string, StoredChannelConnection | null> | undefined = undefined

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
    const changed = this.messageChanges?.get(id)
    return changed === undefined ? this.data.messages.get(id) : (changed ?? undefined)
  }

  *messages(keep: (message: StoredMessage) => boolean = () => true) {
    for (const id of this.data.messages.keys()) {
      const record = this.message(id)
      if (record && keep(record)) yield record
    }
    if (this.messageChanges) for (const [id, record] of this.messageChanges) if (record && !this.data.messages.has(id) && keep(record)) yield record
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

  deleteMessage(id: string) {
    ;(this.messageChanges ??= new Map()).set(id, null)
  }

  putConnection(record: StoredChannelConnection) {
    ;(this.connectionChanges ??= new Map()).set(record._id, record)
  }

  deleteConnection(id: string) {
    ;(this.connectionChanges ??= new Map()).set(id, null)
  }

  /** The records put (null: removed), for a store that writes them down. */
  put(): PutRecords {
    return {
      subscribers: this.subscribers ?? NONE,
      integrations: this.integrationChanges ?? NONE,
      messages: this.messageChanges ?? NONE,
      channelConnections: this.connectionChanges ?? NONE,
    }
  }

  /** The next TenantData, or undefined when nothing was written. */
  commit(): TenantData | undefined {
    const { subscribers, integrationChanges, messageChanges, connectionChanges, data } = this
    if (!subscribers && !integrationChanges && !messageChanges && !connectionChanges) return undefined
    let bytes = afterChanges(bytesOfData(data), data.subscribers, subscribers)
    bytes = afterChanges(afterChanges(bytes, data.integrations, integrationChanges), data.messages, messageChanges)
    bytes = afterChanges(bytes, data.connections, connectionChanges)
    return withBytes(
      {
        subscribers: subscribers ? LayeredMap.with(data.subscribers, subscribers) : data.subscribers,
        integrations: integrationChanges ? LayeredMap.with(data.integrations, integrationChanges) : data.integrations,
        messages: messageChanges ? changed(data.messages, messageChanges) : data.messages,
        connections: connectionChanges ? data.connections.with(connectionChanges) : data.connections,
      },
      bytes,
    )
  }
}
