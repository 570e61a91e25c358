import { ApiError } from '../../answer/api-error.ts'
import type { Answer } from '../../answer/answer.ts'
import { errorBody } from '../../answer/error-body.ts'

/** Calls of one tenant held at once by `Prefer: delay` or a latency rule (docs/behaviour.md §1.5, §6). */
export const MAX_DELAYED_PER_TENANT = 64

/**
 * The calls each tenant has waiting out a delay, in this process. Each holds a connection and a
 * place among the calls the server takes at once: a key sending a thousand `Prefer: delay=15000`
 * calls left every other key a 503 for the whole delay.
 */
export class DelayedCalls {
  private readonly held = new Map<string, number>()

  /** One more of `tenant`'s calls held: the function that lets it go, or undefined when the tenant holds its share. */
  hold(tenant: string): (() => void) | undefined {
    const held = this.held.get(tenant) ?? 0
    if (held >= MAX_DELAYED_PER_TENANT) return undefined
    this.held.set(tenant, held + 1)
    let released = false
    return () => {
      if (released) return
      released = true
      const left = this.held.get(tenant)! - 1
      if (left === 0) this.held.delete(tenant)
      else this.held.set(tenant, left)
    }
  }
}

/** The 429 of a call beyond its tenant's share: an ErrorDto as every 429, `Retry-After` as `RateLimit-Reset`; nothing ran, nothing is replayed. */
export function tooManyDelayed(path: string, now: Date, rateLimitReset = '1'): Answer {
  const error = new ApiError(429, 'TOO_MANY_DELAYED_CALLS', `Too many delayed calls in flight for this tenant (${MAX_DELAYED_PER_TENANT})`)
  return { status: 429, body: errorBody(error, path, now), headers: { 'Retry-After': rateLimitReset }, forced: true }
}
