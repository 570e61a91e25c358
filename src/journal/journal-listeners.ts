import type { JournalEvent, JournalListener, SubscribeOptions } from './journal-port.ts'
import { entryJson, type Kept } from './kept-entry.ts'

/** Listeners at once, over every tenant: each holds an open response, so they are bounded too. */
export const MAX_SUBSCRIBERS = 100
/** Listeners of one tenant at once, beneath MAX_SUBSCRIBERS: one key cannot take every stream (docs/behaviour.md §6). */
export const MAX_SUBSCRIBERS_PER_TENANT = 16

interface Subscription {
  listener: JournalListener
  bodies: boolean
  closed: ((reason: string) => void) | undefined
  stop: () => void
}

/** What a stream closed to make room is told. */
const givenWay = (max: number) => `the server holds at most ${max} event streams: this key's oldest gave way to a key holding fewer`

interface TenantListeners {
  subscriptions: Set<Subscription>
  /** Resolves once the tenant's entries reach this process. */
  open: Promise<void>
}

/** What an adapter does when a tenant's first listener comes and when its last one leaves. */
export interface ListenerHooks {
  /** Answers once the tenant's entries reach this process; rejects if they never will. */
  first?(tenant: string): Promise<void>
  last?(tenant: string): void
}

const OPEN = Promise.resolve()

/** The listeners of a journal, by tenant, at most `max` at once over every tenant and MAX_SUBSCRIBERS_PER_TENANT for one. */
export class JournalListeners {
  private readonly tenants = new Map<string, TenantListeners>()
  private listening = 0

  constructor(
    private readonly max: number,
    private readonly hooks: ListenerHooks = {},
  ) {}

  /** Subscriptions open now, over every tenant. */
  get count(): number {
    return this.listening
  }

  /** JournalPort.subscribe. */
  add(tenant: string, listener: JournalListener, { bodies = true, ready, closed }: SubscribeOptions = {}): (() => void) | undefined {
    let own = this.tenants.get(tenant)
    const held = own?.subscriptions.size ?? 0
    if (held >= MAX_SUBSCRIBERS_PER_TENANT) return undefined
    if (this.listening >= this.max && !this.giveWayTo(held)) return undefined
    if (!own) this.tenants.set(tenant, (own = { subscriptions: new Set(), open: this.opened(tenant) }))
    const listeners = own
    // An object of its own, so the same function subscribed twice is two subscriptions, each stopped once.
    const subscription: Subscription = { listener, bodies, closed, stop: () => this.stop(tenant, listeners, subscription) }
    own.subscriptions.add(subscription)
    this.listening++
    // Not for a subscription stopped meanwhile; a failing `ready` is its stream's, as a failing listener is.
    if (ready) void own.open.then(() => own.subscriptions.has(subscription) && ready()).catch(ignore)
    return subscription.stop
  }

  /**
   * At the bound: the oldest subscription of the key holding the most goes, if that is more than
   * the newcomer's key holds (`held`), so that a few keys cannot keep every stream. Whether one went.
   */
  private giveWayTo(held: number): boolean {
    let busiest: TenantListeners | undefined
    for (const listeners of this.tenants.values()) if (listeners.subscriptions.size > (busiest?.subscriptions.size ?? held)) busiest = listeners
    const oldest = busiest?.subscriptions.values().next().value
    if (!oldest) return false
    oldest.stop()
    try {
      oldest.closed?.(givenWay(this.max))
    } catch {
      // The closed stream's own failure: the newcomer opens regardless.
    }
    return true
  }

  private stop(tenant: string, own: TenantListeners, subscription: Subscription): void {
    if (!own.subscriptions.delete(subscription)) return
    this.listening--
    if (own.subscriptions.size > 0 || this.tenants.get(tenant) !== own) return
    this.tenants.delete(tenant)
    this.hooks.last?.(tenant)
  }

  /** Hands `kept` to the tenant's listeners, each form of it made once, and only when some listener wants it. */
  notify(tenant: string, kept: Kept): void {
    const own = this.tenants.get(tenant)
    if (!own) return
    let whole: JournalEvent | undefined
    let summary: JournalEvent | undefined
    for (const { listener, bodies } of own.subscriptions) {
      const event = bodies ? (whole ??= { id: kept.id, json: entryJson(kept, true) }) : (summary ??= { id: kept.id, json: entryJson(kept, false) })
      notify(listener, event)
    }
  }

  private opened(tenant: string): Promise<void> {
    if (!this.hooks.first) return OPEN
    const open = this.hooks.first(tenant)
    open.catch(ignore) // a failure only withholds `ready`
    return open
  }
}

const ignore = (): void => {}

/** A listener's failure is its own: the call being journaled is answered regardless. */
function notify(listener: JournalListener, event: JournalEvent): void {
  try {
    listener(event)
  } catch {
    // Nothing to do: the listener's stream is broken and its close handler unsubscribes it.
  }
}
