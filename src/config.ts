import type { SeedProgress, SeedVolumes } from '../fixtures/seed.ts'
import type { CorsOrigins } from './http/cors.ts'
import type { LogLevel, Logger } from './http/logger.ts'
import type { RateLimit } from './http/rate-limiter.ts'
import type { ResponseValidation } from './http/respond.ts'
import type { UserFixtures } from './seeding.ts'
import type { Store } from './store/store.ts'

/** Everything a server can be told; the CLI builds it from argv and the environment. */
export interface ServerConfig {
  port: number
  host: string
  seed: number
  /** Seed the lively demo data set (fixtures/demo.ts) rather than the plain generated records. */
  demo: boolean
  volumes: SeedVolumes
  /** The user's records, on top of or instead of the seeded ones. */
  fixtures: UserFixtures | undefined
  /** Strict mode when non-empty: only these API keys are accepted. */
  apiKeys: readonly string[]
  maxTenants: number
  /** A database file (SQLite) keeping every tenant across restarts; in memory when absent. */
  db: string | undefined
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
}

/** Volumes of the demo data set; messages follow the subscribers (fixtures/demo.ts). */
export const DEMO_VOLUMES: SeedVolumes = { subscribers: 300, channelConnections: 600 }
/** Messages per generated subscriber in demo mode unless `--messages` says otherwise: a lively inbox. */
export const DEMO_MESSAGES_PER_SUBSCRIBER = 8

export const DEFAULT_CONFIG: ServerConfig = {
  port: 4010,
  host: '127.0.0.1',
  seed: 1,
  demo: false,
  volumes: { subscribers: 50, channelConnections: 120 },
  fixtures: undefined,
  apiKeys: [],
  maxTenants: 1000,
  db: undefined,
  journalSize: 1000,
  adminToken: undefined,
  responseValidation: 'strict',
  envelope: false,
  proxy: undefined,
  rateLimit: undefined,
  logLevel: 'info',
  corsOrigins: '*',
}

/** Options of createApp: any part of the config, plus what tests and embedders may inject. */
export interface AppOptions extends Partial<ServerConfig> {
  logger?: Logger
  now?: () => Date
  /** A store to use instead of a fresh in-memory one. */
  store?: Store
  /** Told how far the seeding has gone, for a progress bar; the CLI passes it for large volumes. */
  onSeedProgress?: SeedProgress
}

/** The volumes when none are given: the demo data set's, or the plain seed's. */
export const defaultVolumes = (demo: boolean): SeedVolumes => (demo ? DEMO_VOLUMES : DEFAULT_CONFIG.volumes)
