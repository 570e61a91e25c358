import type { StoredChannelConnection, StoredIntegration, StoredMessage, StoredSubscriber, TenantWorkflow } from '../../store/records.ts'
import type { ConnectionQuery, KeyedWrite, Store, TenantTransaction, TenantView } from '../../store/store.ts'
import { HandedOnStore } from './handed-on-store.ts'

/** The collections of a tenant's state, as `GET /__admin/state` names them. */
export type Collection = 'subscribers' | 'integrations' | 'channelConnections' | 'messages' | 'workflows'

/** Where the records a call reads are noted (ReadCapture). */
export interface ReadNotes {
  /** Notes a record as read; answers it. */
  note<T extends object>(collection: Collection, id: string, record: T): T
}

/** A store as one call's handler sees it: the store itself, but for its views and transactions, whose reads are noted (ReadCapture). */
export class CapturingStore extends HandedOnStore {
  constructor(
    store: Store,
    private readonly capture: ReadNotes,
  ) {
    super(store)
  }

  override read<T>(tenant: string, work: (view: TenantView) => T): Promise<T> {
    return this.store.read(tenant, (view) => work(new CapturedView(view, this.capture)))
  }

  override transact<T>(tenant: string, work: (tx: TenantTransaction) => T, recordOf?: (result: T) => KeyedWrite): Promise<T> {
    return this.store.transact(tenant, (tx) => work(new CapturedTransaction(tx, this.capture)), recordOf)
  }
}

/**
 * A tenant's view whose answers are noted as read. A class, not an object of closures: one is
 * made per call, and its methods are the prototype's (closures were the write path's garbage).
 */
class CapturedView implements TenantView {
  constructor(
    protected readonly view: TenantView,
    private readonly capture: ReadNotes,
  ) {}

  private noted<T extends { _id: string }>(collection: Collection, record: T | undefined): T | undefined {
    return record === undefined ? undefined : this.capture.note(collection, record._id, record)
  }

  subscriber(subscriberId: string) {
    const record = this.view.subscriber(subscriberId)
    return record === undefined ? undefined : this.capture.note('subscribers', record.subscriberId, record)
  }

  integration(id: string) {
    return this.noted('integrations', this.view.integration(id))
  }

  *integrations() {
    for (const record of this.view.integrations()) yield this.capture.note('integrations', record._id, record)
  }

  message(id: string) {
    return this.noted('messages', this.view.message(id))
  }

  // A search reads the whole collection: noting each record would make its provider state the
  // tenant itself. The records it changes are noted as they are read by id.
  subscribers() {
    return this.view.subscribers()
  }

  // Only the messages a walk keeps count as read (docs/behaviour.md §9).
  *messages(keep?: (message: StoredMessage) => boolean) {
    for (const record of this.view.messages(keep)) yield this.capture.note('messages', record._id, record)
  }

  connectionByIdentifier(identifier: string) {
    return this.noted('channelConnections', this.view.connectionByIdentifier(identifier))
  }

  workflow(workflowId: string) {
    const record = this.view.workflow(workflowId)
    return record === undefined ? undefined : this.capture.note('workflows', workflowId, record)
  }

  hasWorkflows() {
    return this.view.hasWorkflows()
  }

  connectionPage(query: ConnectionQuery) {
    const page = this.view.connectionPage(query)
    for (const record of page.items) this.capture.note('channelConnections', record._id, record)
    return page
  }
}

/** A transaction whose reads are noted (CapturedView); its writes go through as they are. */
class CapturedTransaction extends CapturedView implements TenantTransaction {
  constructor(
    private readonly tx: TenantTransaction,
    capture: ReadNotes,
  ) {
    super(tx, capture)
  }

  putSubscriber(record: StoredSubscriber) {
    this.tx.putSubscriber(record)
  }

  putIntegration(record: StoredIntegration) {
    this.tx.putIntegration(record)
  }

  putMessage(record: StoredMessage) {
    this.tx.putMessage(record)
  }

  deleteSubscriber(subscriberId: string) {
    this.tx.deleteSubscriber(subscriberId)
  }

  deleteMessage(id: string) {
    this.tx.deleteMessage(id)
  }

  putWorkflow(record: TenantWorkflow) {
    this.tx.putWorkflow(record)
  }

  putConnection(record: StoredChannelConnection) {
    this.tx.putConnection(record)
  }

  deleteConnection(id: string) {
    this.tx.deleteConnection(id)
  }
}
