type AdminSchemas = import('../contract/admin-types.ts').components['schemas']
export type JournalEntry = AdminSchemas['JournalEntry']

export interface RecordOptions {
  secrets?: readonly string[]
  responseText?: string
}

export interface JournalFilter {
  operationId?: string
  method?: string
  path?: string
  status?: number
  /** ISO time; entries at or after it. */
  since?: string
  /** The most recent `limit` entries. */
  limit?: number
}

/** Bodies are kept up to this much JSON text, so the journal is bounded in bytes too. */
export const BODY_LIMIT = 16 * 1024

/** Listeners at once, over every tenant: each holds an open response, so they are bounded too. */
export const MAX_SUBSCRIBERS = 100

export type JournalListener = (entry: JournalEntry) => void

/** The last `size` calls of each tenant, oldest first, dropped as new ones arrive. */
export class RequestJournal {
  private readonly tenants = new Map<string, { next: number; entries: JournalEntry[] }>()
  private readonly listeners = new Map<string, Set<JournalListener>>()
  private listening = 0

  constructor(
    private readonly size: number,
    private readonly maxSubscribers = MAX_SUBSCRIBERS,
  ) {}

  /**
   * Calls `listener` with each entry kept for `tenant` from now on, as it is kept (redacted like
   * the journal). Answers the function that stops it, or undefined when the bound is reached.
   */
  subscribe(tenant: string, listener: JournalListener): (() => void) | undefined {
    if (this.listening >= this.maxSubscribers) return undefined
    let own = this.listeners.get(tenant)
    if (!own) this.listeners.set(tenant, (own = new Set()))
    // Wrapped, so the same function subscribed twice is two subscriptions, each stopped once.
    const subscription: JournalListener = (entry) => listener(entry)
    own.add(subscription)
    this.listening++
    return () => {
      if (!own.delete(subscription)) return
      this.listening--
      if (own.size === 0 && this.listeners.get(tenant) === own) this.listeners.delete(tenant)
    }
  }

  /** Subscriptions open now, over every tenant. */
  get subscribers(): number {
    return this.listening
  }

  /**
   * Keeps the call, with every occurrence of each of `secrets` in its bodies redacted.
   * `responseText`, the body as already serialized for the wire, spares serializing it again.
   */
  record(tenant: string, entry: Omit<JournalEntry, 'id'>, options: RecordOptions = {}): void {
    const secrets = options.secrets ?? []
    if (this.size === 0) return
    let journal = this.tenants.get(tenant)
    if (!journal) this.tenants.set(tenant, (journal = { next: 1, entries: [] }))
    const request = keptBody(entry.requestBody, undefined, secrets)
    const response = keptBody(entry.responseBody, options.responseText, secrets)
    const kept: JournalEntry = { id: journal.next++, ...entry, requestBody: request.value, responseBody: response.value }
    if (request.cut || response.cut) kept.truncated = true
    if (kept.requestBody === undefined) delete kept.requestBody
    journal.entries.push(kept)
    if (journal.entries.length > this.size) journal.entries.shift()
    this.listeners.get(tenant)?.forEach((listener) => notify(listener, kept))
  }

  list(tenant: string, filter: JournalFilter = {}): JournalEntry[] {
    const since = filter.since === undefined ? undefined : Date.parse(filter.since)
    const matching = (this.tenants.get(tenant)?.entries ?? []).filter(
      (e) =>
        (filter.operationId === undefined || e.operationId === filter.operationId) &&
        (filter.method === undefined || e.method === filter.method) &&
        (filter.path === undefined || e.path === filter.path) &&
        (filter.status === undefined || e.status === filter.status) &&
        (since === undefined || Date.parse(e.time) >= since),
    )
    return filter.limit === undefined ? matching : matching.slice(-filter.limit)
  }

  clear(tenant: string): number {
    const cleared = this.tenants.get(tenant)?.entries.length ?? 0
    this.tenants.delete(tenant)
    return cleared
  }
}

/** A listener's failure is its own: the call being journaled is answered regardless. */
function notify(listener: JournalListener, entry: JournalEntry): void {
  try {
    listener(entry)
  } catch {
    // Nothing to do: the listener's stream is broken and its close handler unsubscribes it.
  }
}

/** A body as the journal keeps it: serialized once, secrets redacted, cut past BODY_LIMIT. */
function keptBody(body: unknown, serialized: string | undefined, secrets: readonly string[]): { value: unknown; cut: boolean } {
  if (body === undefined) return { value: undefined, cut: false }
  let text = serialized ?? JSON.stringify(body)
  if (secrets.some((secret) => text.includes(secret))) {
    text = JSON.stringify(body, (_key, value: unknown) => (typeof value === 'string' ? redactIn(value, secrets) : value))
    body = JSON.parse(text)
  }
  if (text.length <= BODY_LIMIT) return { value: body, cut: false }
  return { value: text.slice(0, BODY_LIMIT), cut: true }
}

function redactIn(text: string, secrets: readonly string[]): string {
  return secrets.reduce((result, secret) => result.split(secret).join('[redacted]'), text)
}
