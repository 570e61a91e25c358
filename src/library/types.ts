// The library's surface. Types only, and nothing from a dependency: the package's .d.ts must compile
// in a project that has none of novu-mock's dependencies' types (test/packaging/pack.test.ts).
import type { ClockState, Expectation, FaultRule, FaultRuleInput, JournalEntry, PactDocument, PactOptions, RequestFilter, SnapshotInfo, TenantState } from './document-types.ts'

/**
 * Every flag of `novu-mock start`, camelCased (`--api-key` is `apiKeys`), read and checked as the
 * CLI reads it, with the CLI's defaults except two: `port` 0 (any free port) and `logLevel`
 * 'silent'. Neither the environment nor a config file is read.
 */
export interface MockServerOptions {
  /** Port to listen on; 0 (the default) takes any free one. */
  port?: number
  /** Address to bind; 127.0.0.1 by default. */
  host?: string
  /** Seed of the generated records; 1 by default. */
  seed?: number
  /** Seed the lively demo data set instead of the plain one. */
  demo?: boolean
  /** Subscribers per tenant, the 2 well-known included. */
  subscribers?: number
  /** Channel connections per tenant. */
  connections?: number
  /** Messages per tenant, the 13 well-known included. */
  messages?: number
  /** A folder of JSON arrays, or one state file as `novu-mock seed --out` writes. */
  fixtures?: string
  /** `merge` (on top of the seed, the default) or `replace` (instead of it). */
  fixturesMode?: 'merge' | 'replace'
  /** Accept only these API keys; any key when absent. */
  apiKeys?: readonly string[]
  /** An SQLite file (through the optional `better-sqlite3`) that keeps every tenant across restarts; in memory when absent. */
  db?: string
  /** A `redis://` URL that keeps every tenant, shared by every server started with it (not with `db`). */
  redis?: string
  /** With `redis`: replicas of a tenant's master that must have a write before it is acknowledged (at most the ones it has); 1 by default, 0 for none. */
  redisWaitReplicas?: number
  /** Tenants held in memory at once; 1000 by default. At the bound the least recently used one with no call in flight is released. */
  maxTenants?: number
  /** Bytes held for the tenants at most (the JSON of their records): `'512m'`, `'2g'`, or bytes as text; half of V8's heap limit by default. */
  memoryBudget?: string
  /** With `db` or `redis`: a stored tenant not called for this long is deleted (`'30d'` by default, `'12h'`, `'90m'`, `'45s'`; `'0'` keeps them for ever). */
  tenantTtl?: string
  /** Calls kept per tenant in the request journal; 1000 by default. */
  journalSize?: number
  /** The `x-admin-token` that opens `/__admin` on a non-loopback host. */
  adminToken?: string
  /** Enforce `<requests>/<seconds>` per tenant with 429, e.g. `'100/1'`; counted, not enforced, when absent. */
  rateLimit?: string
  /** Wrap results as `{"data": …}` like the live service. */
  envelope?: boolean
  /** Forward the API to this upstream URL and check both directions instead of mocking. */
  proxy?: string
  /** With `proxy`: answer 502 when an exchange breaks the contract. */
  proxyStrict?: boolean
  /** What a response that breaks the contract gets; `strict` by default. */
  responseValidation?: 'strict' | 'warn' | 'off'
  /** Browser origins allowed to call: `'*'` (any, the default), `'none'`, or a list of origins. */
  corsOrigins?: '*' | 'none' | readonly string[]
  /** Every tenant starts with its clock frozen at this ISO 8601 instant; real time when absent. */
  clock?: string
  /** Host names answered beside the loopback ones, or `'all'` (no Host check); see docs/behaviour.md §1.7. */
  allowedHosts?: 'all' | readonly string[]
  /** `silent` by default in the library. */
  logLevel?: 'debug' | 'info' | 'warn' | 'error' | 'silent'
}

/** A running mock. */
export interface MockServer {
  /** `http://127.0.0.1:<port>` (the bound host), no trailing slash. */
  readonly url: string
  /** The tenant of this API key (every key is its own tenant), created on first use. */
  tenant(apiKey: string): Tenant
  /** Resolves once the port is closed; calls in flight get their answers first. */
  close(): Promise<void>
}

/**
 * The control plane (`/__admin`, spec/admin.yaml) for one tenant, called in process: each method
 * runs what its admin route runs, and rejects with the reason the route would answer with.
 */
export interface Tenant {
  readonly apiKey: string
  /** Every stored record, as `GET /__admin/state`. */
  state(): Promise<TenantState>
  /** Replaces every record, as `PUT /__admin/state`; rejects naming the bad record and changes nothing. */
  setState(state: TenantState): Promise<void>
  /** Back to the seed. */
  reset(): Promise<void>
  /** The calls made with this key, oldest first (at most `limit`, 100 by default). */
  requests(filter?: RequestFilter): Promise<JournalEntry[]>
  clearRequests(): Promise<void>
  /**
   * Resolves when the journal holds the expected calls; else rejects with a VerificationError
   * naming the operation, what was expected and what was seen.
   */
  verify(expectation: Expectation): Promise<void>
  /** Saves the current records under `name` (replacing a snapshot of that name). */
  snapshot(name: string): Promise<SnapshotInfo>
  /** Puts the records back to the snapshot `name`. */
  restore(name: string): Promise<SnapshotInfo>
  /** Adds a fault rule; the rule returned carries its id. */
  fault(rule: FaultRuleInput): Promise<FaultRule>
  removeFault(id: string): Promise<void>
  clearFaults(): Promise<void>
  /** The tenant's time, which every timestamp and time rule of its calls follows (`/__admin/clock`). */
  readonly clock: TenantClock
  /** The calls made with this key as a Pact V4 document, each with the provider state it came from (`GET /__admin/pact`). */
  pact(options: PactOptions): Promise<PactDocument>
}

/** A tenant's clock, as `/__admin/clock` sets it; each method answers the time as it then stands. */
export interface TenantClock {
  get(): Promise<ClockState>
  /** The tenant's time becomes `now`: frozen there unless `frozen` is false (then it runs from there). */
  set(now: string | Date, options?: { frozen?: boolean }): Promise<ClockState>
  /** Moves the tenant's time forward by exactly `ms` (a whole number, 0 or more), frozen or running as it is. */
  advance(ms: number): Promise<ClockState>
  /** Back on the real clock, as `DELETE /__admin/clock`. */
  useRealTime(): Promise<ClockState>
}
