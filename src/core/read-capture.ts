import type { Store, TenantTransaction, TenantView } from '../store/store.ts'

/**
 * Each record's JSON, kept while the record lives: a record is never changed in place, so its
 * text stays true, and the calls that read it unchanged (most reads, and a write's other
 * integrations) share one serialization.
 */
const texts = new WeakMap<object, string>()

function recordText(record: object): string {
  let text = texts.get(record)
  if (text === undefined) texts.set(record, (text = JSON.stringify(record)))
  return text
}

/** The collections of a tenant's state, as `GET /__admin/state` names them. */
type Collection = 'subscribers' | 'integrations' | 'channelConnections' | 'messages' | 'workflows'

/**
 * The records a call's handler read, each as it was when first read: its provider state
 * (docs/behaviour.md §9). The handlers read every record before they replace it, so the first
 * reading is the record as it was before the call. Records are kept by reference: the store
 * replaces a record with a new object, never changes one in place, so the reference stays the
 * record as it was read; it is serialized once, when the call is journaled.
 */
export class ReadCapture {
  private readonly seen = new Map<Collection, Map<string, object>>()

  /** `store` as the call's handler sees it: every record its views answer is noted here. */
  over(store: Store): Store {
    const capturing: Store = Object.create(store) as Store
    capturing.read = (tenant, work) => store.read(tenant, (view) => work(this.viewOf(view)))
    capturing.transact = (tenant, work, recordOf) => store.transact(tenant, (tx) => work(this.transactionOf(tx)), recordOf)
    return capturing
  }

  /**
   * The records read, by collection, in the order first read, as JSON (`JSON.stringify` of them);
   * undefined when none was. Each record is serialized once, by whichever call reads it first.
   */
  json(): string | undefined {
    if (this.seen.size === 0) return undefined
    const parts: string[] = []
    for (const [collection, byId] of this.seen) parts.push(`"${collection}":[${[...byId.values()].map(recordText).join(',')}]`)
    return `{${parts.join(',')}}`
  }

  private note<T extends object>(collection: Collection, id: string, record: T): T {
    let byId = this.seen.get(collection)
    if (!byId) this.seen.set(collection, (byId = new Map()))
    if (!byId.has(id)) byId.set(id, record)
    return record
  }

  private viewOf(view: TenantView): TenantView {
    const noted = <T extends { _id: string }>(collection: Collection, record: T | undefined) => (record === undefined ? undefined : this.note(collection, record._id, record))
    const capture = this
    return {
      subscriber: (subscriberId) => {
        const record = view.subscriber(subscriberId)
        return record === undefined ? undefined : this.note('subscribers', record.subscriberId, record)
      },
      integration: (id) => noted('integrations', view.integration(id)),
      *integrations() {
        for (const record of view.integrations()) yield capture.note('integrations', record._id, record)
      },
      message: (id) => noted('messages', view.message(id)),
      // A search reads the whole collection: noting each record would make its provider state the
      // tenant itself. The records it changes are noted as they are read by id.
      subscribers: () => view.subscribers(),
      // Only the messages a walk keeps count as read (docs/behaviour.md §9).
      *messages(keep) {
        for (const record of view.messages(keep)) yield capture.note('messages', record._id, record)
      },
      connectionByIdentifier: (identifier) => noted('channelConnections', view.connectionByIdentifier(identifier)),
      workflow: (workflowId) => {
        const record = view.workflow(workflowId)
        return record === undefined ? undefined : this.note('workflows', workflowId, record)
      },
      hasWorkflows: () => view.hasWorkflows(),
      connectionPage: (query) => {
        const page = view.connectionPage(query)
        for (const record of page.items) this.note('channelConnections', record._id, record)
        return page
      },
    }
  }

  private transactionOf(tx: TenantTransaction): TenantTransaction {
    return {
      ...this.viewOf(tx),
      putSubscriber: (record) => tx.putSubscriber(record),
      putIntegration: (record) => tx.putIntegration(record),
      putMessage: (record) => tx.putMessage(record),
      deleteSubscriber: (subscriberId) => tx.deleteSubscriber(subscriberId),
      deleteMessage: (id) => tx.deleteMessage(id),
      putWorkflow: (record) => tx.putWorkflow(record),
      putConnection: (record) => tx.putConnection(record),
      deleteConnection: (id) => tx.deleteConnection(id),
    }
  }
}
