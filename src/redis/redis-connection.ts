import type { Cluster, Redis, RedisOptions } from 'ioredis'
import { writeInTurns } from './turn-writes.ts'

/** A single Redis, or a Redis Cluster found from one of its nodes (connectRedis). */
export type RedisClient = Redis | Cluster

/** How health names the two: a single Redis (replicas or not), or a cluster. */
export type RedisMode = 'redis' | 'redis-cluster'

const isCluster = (client: RedisClient): client is Cluster => client.isCluster

export const modeOf = (client: RedisClient): RedisMode => (isCluster(client) ? 'redis-cluster' : 'redis')

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

/** Once running, a command whose connection is down fails at once (503) rather than wait in a queue. */
const NO_QUEUE = { enableOfflineQueue: false, maxRetriesPerRequest: 1, commandTimeout: COMMAND_TIMEOUT_MS } as const

/**
 * Connects to the Redis at `url`; ioredis is loaded only for --redis. The node is asked whether it
 * runs in cluster mode: if so (any node of a cluster, or a managed service's configuration
 * endpoint), the cluster is connected from it through ioredis's Cluster client, which follows
 * MOVED/ASK and a failover by itself. The commands of one turn of the event loop leave in one
 * write to each connection (turn-writes.ts). Once running, a command sent while its node is down fails
 * at once (no offline queue), so a call answers 503 rather than wait; the next call is served again.
 */
export async function connectRedis(url: string): Promise<RedisClient> {
  const where = redactedUrl(url)
  const { Redis } = await import('ioredis')
  const node = await connected(where, new Redis(url, { lazyConnect: true, ...NO_QUEUE }))
  const info = await node.info('cluster').catch(() => '')
  const client = /^cluster_enabled:1/m.test(info) ? await connectedCluster(where, node) : node
  writeInTurns(client)
  return client
}

async function connectedCluster(where: string, node: Redis): Promise<Cluster> {
  node.disconnect()
  return connected(where, await clusterFrom(node.options))
}

/** The cluster the node of `options` belongs to, as one client; each node is reached with the seed node's credentials and TLS. */
async function clusterFrom({ host, port, username, password, tls }: RedisOptions): Promise<Cluster> {
  const { Cluster } = await import('ioredis')
  return new Cluster([{ host: host!, port: port! }], {
    lazyConnect: true,
    enableOfflineQueue: false,
    // A managed cluster over TLS names its nodes by address: the certificate is checked against the seed's host name.
    redisOptions: { username, password, tls: tls && { ...tls, servername: host }, maxRetriesPerRequest: NO_QUEUE.maxRetriesPerRequest, commandTimeout: COMMAND_TIMEOUT_MS },
    // A dead master's slots: asked again soon, so the promoted replica is found within a second of its promotion.
    slotsRefreshInterval: 1000,
    // Reconnected for ever (a cluster entirely away comes back): each call meanwhile answers 503.
    clusterRetryStrategy: (times) => Math.min(100 * times, 2000),
  })
}

/** The client once it answers; at the start, a failure stops the start in one line, without the password. */
async function connected<T extends RedisClient>(where: string, client: T): Promise<T> {
  // Once running, a lost connection is reported through the commands that fail (503); at the start, it stops the start.
  let cause: Error | undefined
  client.on('error', (error: Error) => void (cause ??= error))
  client.on('node error', (error: Error) => void (cause ??= error))
  try {
    await client.connect()
    return client
  } catch (error) {
    client.disconnect()
    throw new RedisUnreachable(`--redis ${where}: cannot connect (${(cause ?? (error as Error)).message})`)
  }
}

/**
 * A second connection for a live stream: its commands wait while it is down (the offline queue,
 * without a timeout), so a subscription is made once Redis is back; ioredis subscribes again by
 * itself after a reconnect. On a cluster, a channel published on any node reaches it.
 */
export function subscriberOf(client: RedisClient): RedisClient {
  const queued = { enableOfflineQueue: true, maxRetriesPerRequest: null, commandTimeout: undefined }
  if (!isCluster(client)) return client.duplicate({ ...queued, lazyConnect: false })
  return client.duplicate([], { enableOfflineQueue: true, lazyConnect: false, redisOptions: { maxRetriesPerRequest: null, commandTimeout: undefined } })
}

/**
 * A second connection, for large replies (a whole tenant of thousands of rows): replies come in
 * order on a connection, so 50 MB read on the calls' connection held every later call's reply
 * behind it for most of a second. Its failures are reported through the commands that fail.
 */
export async function bulkConnectionOf(client: RedisClient): Promise<RedisClient> {
  const bulk = isCluster(client) ? client.duplicate() : client.duplicate({ lazyConnect: true })
  bulk.on('error', () => undefined)
  try {
    await bulk.connect()
    return bulk
  } catch (error) {
    bulk.disconnect()
    throw error
  }
}

/** How long a health check waits for PONG: a Redis that does not answer in that time is unreachable. */
const PING_TIMEOUT_MS = 1000

export async function answersPing(client: RedisClient): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), PING_TIMEOUT_MS)))
  const pong = client.ping().then(
    () => true,
    () => false,
  )
  return Promise.race([pong, late]).finally(() => clearTimeout(timer))
}
