/**
 * A seed's description, the one type for it from the flags to a store's record of it: the same
 * description makes the same records (src/seed/generators/seed.ts).
 */
export interface SeedSpec {
  seed: number
  /** The lively demo data set (src/seed/generators/demo.ts) instead of the plain generated records. */
  demo?: boolean | undefined
  /** Subscribers in all, the two well-known ones included. */
  subscribers: number
  channelConnections: number
  /** Messages in all, the 13 well-known ones included; by default a number per generated subscriber. */
  messages?: number | undefined
  /** The user's records under the seed (`--fixtures`). */
  fixtures?: SeedFixtures | undefined
  /** `--clock` (ISO 8601), recorded in Redis so that every instance starts its tenants at the same time. */
  clock?: string | undefined
}

/** A folder (`subscribers.json`, … one JSON array per kind), or one file in the shape of `GET /__admin/state`. */
export interface SeedFixtures {
  dir: string
  /** `merge`: on top of the seeded records, same id replacing; `replace`: instead of them. */
  mode: 'merge' | 'replace'
  /** Why that mode when no flag chose it (a state file replaces), for the CLI to say. */
  why?: string | undefined
  /** What they held, as a store (a file, or Redis) records it. */
  digest?: string | undefined
}
