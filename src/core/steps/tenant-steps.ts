import { apiKeyFrom } from '../authenticate.ts'
import type { PendingTime } from '../../clock/tenant-clocks.ts'
import type { RateLimitHeaders } from '../../policies/rate-limit/rate-limit-port.ts'
import type { Call, Step } from './call.ts'

/** The key of `Authorization`, for an operation or a plane that needs one (docs/behaviour.md §1.3). */
export const authenticate: Step = (call) => {
  if (call.run.needsKey) call.tenantKey = apiKeyFrom(call.request.header('authorization'), call.run.state.apiKeys)
}

/**
 * The API's tenant opened in the store, its time asked for first: with Redis the clock, the sync
 * and the rate limit's token travel together. The time is waited for by `limitRate`.
 */
export const openTenant: Step = (call) => {
  const key = call.tenantKey
  if (key === undefined) return
  const time = call.run.state.clocks.read(key)
  // Its failure is answered by `limitRate`, if the call gets that far.
  if (typeof time === 'object') time.ms.catch(() => undefined)
  call.time = time
  return opened(call, key)
}

async function opened(call: Call, key: string): Promise<void> {
  call.end = await call.run.state.store.open(key)
}

/**
 * The rate limit's token (docs/behaviour.md §5). A time on its way is not waited for: the token is
 * asked for at once, read at that time where the clock is kept. In memory the clock and the limiter
 * answer at once, and nothing is awaited.
 */
export const limitRate: Step = (call) => {
  const key = call.tenantKey
  const { time } = call
  if (key === undefined) return
  const { rateLimiter } = call.run.policies!
  const { operationId } = call.run.operation
  if (typeof time === 'object') return limitedAt(call, rateLimiter.take(key, time, operationId), time)
  if (time !== undefined) call.at = new Date(time)
  const limits = rateLimiter.take(key, call.now().getTime(), operationId)
  if (limits instanceof Promise) return limitedAt(call, limits, undefined)
  call.headers = limits
}

async function limitedAt(call: Call, limits: RateLimitHeaders | Promise<RateLimitHeaders>, time: PendingTime | undefined): Promise<void> {
  if (limits instanceof Promise) limits.catch(() => undefined) // answered below, once the time is
  if (time !== undefined) call.at = new Date(await time.ms)
  call.headers = await limits
}

/** The control plane's tenant time, when it names a tenant (docs/behaviour.md §8): it opens nothing. */
export const readTenantTime: Step = (call) => {
  const key = call.tenantKey
  if (key === undefined) return
  const time = call.run.state.clocks.read(key)
  if (typeof time === 'number') call.at = new Date(time)
  else return timeAt(call, time)
}

async function timeAt(call: Call, time: PendingTime): Promise<void> {
  call.at = new Date(await time.ms)
}
