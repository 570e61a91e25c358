import type { MaybePromise } from '../../lib/maybe-promise.ts'

/** What a key's fingerprint covers: method, path and the body's print (docs/behaviour.md §4). */
export interface Fingerprint {
  readonly method: string
  readonly path: string
  /** The request body's print (the body itself, or its hash: key-rules.ts's bodyPrint). */
  readonly print: string
}

/** A keyed call under way: its tenant, key and fingerprint. */
export interface RunningCall extends Fingerprint {
  readonly tenant: string
  readonly key: string
  /** Its marker's value, where a shared store's write deletes it with the call's record (Redis's). */
  marker: string | undefined
}

/**
 * The in-flight markers of keyed calls (docs/behaviour.md §4): per call and hot, so beside the
 * tenant's value rather than in it. A marker makes a second call of the key a 409 (or a 422, for
 * another fingerprint) while the first runs; its call releases it once its record is stored or
 * dropped. In memory a map (RunningKeys); with --redis a key per call with a time to live, renewed
 * while the call runs, so that any instance sees it (redis/redis-running-keys.ts).
 */
export interface RunningKeysPort {
  /** Marks the call's key as under way: undefined when it now is the call's, else the fingerprint of the call that holds it. */
  claim(call: RunningCall): MaybePromise<Fingerprint | undefined>
  /**
   * Lets go of the call's marker (only its own: one that lapsed and was taken by another call
   * stays); `stored`: the write that stored the call's record took its `marker` along.
   */
  release(call: RunningCall, stored?: boolean): void
  /** Ends what the adapter runs in the background. */
  close?(): void
}

/** The markers of one process, by tenant then key: a call under way never lapses here, its process being the one that runs it. */
export class RunningKeys implements RunningKeysPort {
  private readonly tenants = new Map<string, Map<string, RunningCall>>()

  claim(call: RunningCall): Fingerprint | undefined {
    let keys = this.tenants.get(call.tenant)
    if (!keys) this.tenants.set(call.tenant, (keys = new Map()))
    const held = keys.get(call.key)
    if (held) return held
    keys.set(call.key, call)
    return undefined
  }

  release(call: RunningCall): void {
    const keys = this.tenants.get(call.tenant)
    if (keys?.get(call.key) !== call) return
    keys.delete(call.key)
    if (keys.size === 0) this.tenants.delete(call.tenant)
  }
}
