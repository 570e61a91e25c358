import { getHeapStatistics } from 'node:v8'
import type { SeedProgress } from '../seed/progress-counter.ts'
import { DEFAULT_VOLUMES, type SeedVolumes } from '../seed/seed-options.ts'
import type { CorsOrigins } from '../http/cors.ts'
import type { AllowedHosts } from '../http/host-check.ts'
import type { LogLevel, Logger } from '../log/logger.ts'
import type { RateLimit } from '../policies/rate-limit/rate-limiter.ts'
import type { ResponseValidation } from '../core/answers/response-check.ts'
import type { SeedFixtures, Store } from '../store/store.ts'

/** Everything a server can be told; the CLI builds it from argv and the environment. */
export interface ServerConfig {
  port: number
  host: string
  seed: number
  /** Seed the lively demo data set rather than the plain generated records. */
  demo: boolean
  volumes: SeedVolumes
  /** The user's records, on top of or instead of the seeded ones. */
  fixtures: SeedFixtures | undefined
  /** Strict mode when non-empty: only these API keys are accepted. */
  apiKeys: readonly string[]
  maxTenants: number
  /** Bytes (the JSON of their records) an instance holds for its tenants at most (docs/behaviour.md §3). */
  memoryBudget: number
  /** With --db or --redis, a stored tenant not called for this long is deleted; 0: never. */
  tenantTtlMs: number
  /** A database file (SQLite) keeping every tenant across restarts; in memory when absent. */
  db: string | undefined
  /** A Redis URL: the state is kept there, shared by every instance started with it. */
  redis: string | undefined
  /** With `redis`: replicas of a tenant's master that must have a write before it is acknowledged, at most the ones it has. */
  redisWaitReplicas: number
  /** Open connections at once; one more gets a 503 with Retry-After. */
  maxConnections?: number
  /** Time a client has to send its whole request (30 s); past it, a 408. */
  requestTimeoutMs?: number
  /** Calls kept per tenant in the request journal. */
  journalSize: number
  /** Opens `/__admin` on a non-loopback host, sent as `x-admin-token`. */
  adminToken: string | undefined
  responseValidation: ResponseValidation
  /** Forward the five operations to this upstream and check both directions, instead of mocking. */
  proxy: { upstream: string; strict: boolean } | undefined
  /** Wrap results as `{"data": …}` like the live service. */
  envelope: boolean
  /** Enforced with 429 when set; without it, the default 100/1 s is counted for the headers only. */
  rateLimit: RateLimit | undefined
  logLevel: LogLevel
  /** Browser pages allowed to call the mock: any (`*`, the default), these origins, or `none`. */
  corsOrigins: CorsOrigins
  /** `--clock`, in ms since the epoch: every tenant starts frozen there (docs/behaviour.md §8); real time when absent. */
  clock: number | undefined
  /** Host names answered beside the loopback ones (docs/behaviour.md §1.7), or `all`; absent: the bind decides. */
  allowedHosts: AllowedHosts | undefined
}

export const DEFAULT_CONFIG: ServerConfig = {
  port: 4010,
  host: '127.0.0.1',
  seed: 1,
  demo: false,
  volumes: DEFAULT_VOLUMES,
  fixtures: undefined,
  apiKeys: [],
  maxTenants: 1000,
  // Half of the heap: the rest is the process's own, the journal's and the answers' in flight.
  memoryBudget: Math.floor(getHeapStatistics().heap_size_limit / 2),
  tenantTtlMs: 30 * 24 * 60 * 60 * 1000,
  db: undefined,
  redis: undefined,
  redisWaitReplicas: 1,
  journalSize: 1000,
  adminToken: undefined,
  responseValidation: 'strict',
  envelope: false,
  proxy: undefined,
  rateLimit: undefined,
  logLevel: 'info',
  corsOrigins: '*',
  clock: undefined,
  allowedHosts: undefined,
}

/** Options of createApp: any part of the config, plus what tests and embedders may inject. */
export interface AppOptions extends Partial<ServerConfig> {
  logger?: Logger
  /** The real clock, under the tenants' own (docs/behaviour.md §8). */
  now?: () => Date
  /** A store to use instead of a fresh in-memory one. */
  store?: Store
  /** Told how far the seeding has gone, for a progress bar; the CLI passes it for large volumes. */
  onSeedProgress?: SeedProgress
  /** Aborted when the server closes: the answers that never finish on their own (event streams) end then. */
  shutdown?: AbortSignal
}
