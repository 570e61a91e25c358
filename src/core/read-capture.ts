import type { StoredChannelConnection, StoredIntegration, StoredMessage, StoredSubscriber, TenantWorkflow } from '../store/records.ts'
import type { ConnectionQuery, KeyedWrite, Store, TenantTransaction, TenantView } from '../store/store.ts'

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
    let Capturing = capturingClasses.get(store)
    if (!Capturing) capturingClasses.set(store, (Capturing = capturingClassOver(store)))
    return new Capturing(this)
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

  /** Notes a record as read (the first reading of its id is kept); answers it. */
  note<T extends object>(collection: Collection, id: string, record: T): T {
    let byId = this.seen.get(collection)
    if (!byId) this.seen.set(collection, (byId = new Map()))
    if (!byId.has(id)) byId.set(id, record)
    return record
  }

}

/** A store as a call's handler sees it, made for one capture. */
type CapturingStore = new (capture: ReadCapture) => Store
const capturingClasses = new WeakMap<Store, CapturingStore>()

/**
 * A class of stores that are `store` but for their reads and writes, which note what they read.
 * Made once per store: an object made per call by Object.create(store), with its own two
 * closures, was a call's largest cost of its own in the profile (docs/benchmarks.md).
 */
function capturingClassOver(store: Store): CapturingStore {
  class Capturing {
    constructor(private readonly capture: ReadCapture) {}

    read<T>(tenant: string, work: (view: TenantView) => T): Promise<T> {
      return store.read(tenant, (view) => work(new CapturedView(view, this.capture)))
    }

    transact<T>(tenant: string, work: (tx: TenantTransaction) => T, recordOf?: (result: T) => KeyedWrite): Promise<T> {
      return store.transact(tenant, (tx) => work(new CapturedTransaction(tx, this.capture)), recordOf)
    }
  }
  // Every other member is the store's own, as Object.create(store) had it.
  Object.setPrototypeOf(Capturing.prototype, store)
  return Capturing as unknown as CapturingStore
}

/**
 * A tenant's view whose answers are noted as read. A class, not an object of closures: one is
 * made per call, and its methods are the prototype's (closures were the write path's garbage).
 */
class CapturedView implements TenantView {
  constructor(
    protected readonly view: TenantView,
    private readonly capture: ReadCapture,
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
    capture: ReadCapture,
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
