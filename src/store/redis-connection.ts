import type { Redis as RedisClient } from 'ioredis'

export type { RedisClient }

/** Every key novu-mock writes starts with this. */
export const KEY_PREFIX = 'novu-mock'

/**
 * The start of a tenant's keys. Every key of one tenant carries the tenant's hash tag, so a
 * script touching several of them runs on one node of a cluster.
 */
export const tenantKeyBase = (tenant: string): string => `${KEY_PREFIX}:{${Buffer.from(tenant).toString('base64url')}}:`

/** Redis cannot be reached at the start: the start stops with this one-line message. */
export class RedisUnreachable extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'RedisUnreachable'
  }
}

/** A URL without its password, fit for a message. */
export const redactedUrl = (url: string): string => url.replace(/\/\/([^@/]*)@/, '//***@')

/** A Redis that takes the connection but does not answer (a stopped process) fails the call after this: 503, not a hang. */
const COMMAND_TIMEOUT_MS = 5000

/**
 * Connects to the Redis at `url`; ioredis is loaded only for --redis. Once running, a command
 * sent while the connection is down fails at once (no offline queue), so a call answers 503
 * rather than wait; ioredis reconnects by itself and the next call is served again.
 */
export async function connectRedis(url: string): Promise<RedisClient> {
  const where = redactedUrl(url)
  const { Redis } = await import('ioredis')
  const client = new Redis(url, { lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 1, commandTimeout: COMMAND_TIMEOUT_MS })
  // Once running, a lost connection is reported through the commands that fail (503); at the start, it stops the start.
  let cause: Error | undefined
  client.on('error', (error: Error) => void (cause ??= error))
  try {
    await client.connect()
    return client
  } catch (error) {
    client.disconnect()
    throw new RedisUnreachable(`--redis ${where}: cannot connect (${(cause ?? (error as Error)).message})`)
  }
}

