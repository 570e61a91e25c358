import type { Logger } from './logger.ts'
import { hashOfKey } from './request-log.ts'
import { Lru } from '../lib/lru.ts'

/** The answers the official SDK retries by default, with backoff, for up to an hour. */
const RETRIED: ReadonlySet<number> = new Set([429, 503])
/** A client that repeats a call more than this many times within WINDOW_MS is retrying. */
const MORE_THAN = 5
const WINDOW_MS = 10_000
/** One warning per key within this time, however many calls it retries. */
const QUIET_MS = 60_000
/** Keys and calls remembered at most: the least recently answered go first. */
const MAX_KEPT = 10_000

export const RETRY_HINT =
  "the official SDK retries 429 and 5xx answers with backoff for up to an hour by default, so a test waits until it times out: give it retryConfig: { strategy: 'none' } (new Novu({ …, retryConfig: { strategy: 'none' } })) to get the error at once"

/**
 * Notices a client retrying a call the mock answers 503 or 429 (a fault rule, the rate limit),
 * as the SDK does by default, and says so in one `warn` line per key and minute naming the fix:
 * otherwise the test only hangs (docs/behaviour.md §6).
 */
export class RetryHint {
  /** By key and call, the times (ms) of its recent 503 and 429 answers. */
  private readonly answers = new Lru<number[]>(MAX_KEPT)
  /** By key, when it was last warned of. */
  private readonly warned = new Lru<number>(MAX_KEPT)

  constructor(
    private readonly logger: Logger,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Told of every answer of the API: `call` is its method and path, `key` its tenant's API key (logged as its hash). */
  answered(key: string, call: string, status: number): void {
    if (!RETRIED.has(status) || !this.logger.enabled('warn')) return
    const at = this.now()
    const times = this.answers.remember(`${key}\0${call}`, () => [])
    times.push(at)
    while (times[0]! <= at - WINDOW_MS) times.shift()
    if (times.length > MORE_THAN + 1) times.shift() // only "more than five" is asked: the rest need not be kept
    if (times.length <= MORE_THAN) return
    const last = this.warned.get(key)
    if (last !== undefined && at - last < QUIET_MS) return
    this.warned.set(key, at)
    this.logger.warn(`a client repeats ${call}, answered ${status} more than ${MORE_THAN} times within ${WINDOW_MS / 1000} s: ${RETRY_HINT}`, { tenant: hashOfKey(key), call, status })
  }
}
