import { DEFAULT_CONFIG } from '../app/config.ts'
import { DEMO_MESSAGES_PER_SUBSCRIBER, DEMO_VOLUMES } from '../seed/seed-options.ts'

/** How a flag's value is written in the config file; on the command line and in env, all are text. */
export type FlagKind = 'integer' | 'string' | 'boolean' | 'list'

export interface Flag {
  /** Its environment variable. */
  env: string
  /** An older variable read when `env` is unset. */
  fallbackEnv?: string
  kind: FlagKind
  help: string
  default: string
}

/**
 * Every option of `start`, `seed` and `validate-fixtures`, its environment variable, its type in
 * the config file, and its help line: the one table the CLI is built from.
 */
export const FLAGS = {
  port: { env: 'NOVU_MOCK_PORT', fallbackEnv: 'PORT', kind: 'integer', help: 'port to listen on', default: String(DEFAULT_CONFIG.port) },
  host: { env: 'NOVU_MOCK_HOST', fallbackEnv: 'HOST', kind: 'string', help: 'address to bind', default: DEFAULT_CONFIG.host },
  seed: { env: 'NOVU_MOCK_SEED', kind: 'integer', help: 'seed of the generated records', default: String(DEFAULT_CONFIG.seed) },
  demo: { env: 'NOVU_MOCK_DEMO', kind: 'boolean', help: 'seed a lively, realistic data set: more integrations, and subscribers, connections and messages that read like a real product\'s (env: 1 or true)', default: 'off' },
  subscribers: { env: 'NOVU_MOCK_SUBSCRIBERS', kind: 'integer', help: 'subscribers per tenant, the 2 well-known included', default: `${DEFAULT_CONFIG.volumes.subscribers} (${DEMO_VOLUMES.subscribers} with --demo)` },
  connections: { env: 'NOVU_MOCK_CONNECTIONS', kind: 'integer', help: 'channel connections per tenant', default: `${DEFAULT_CONFIG.volumes.channelConnections} (${DEMO_VOLUMES.channelConnections} with --demo)` },
  messages: { env: 'NOVU_MOCK_MESSAGES', kind: 'integer', help: 'messages per tenant, the 13 well-known included', default: `13 + 5 per generated subscriber (${DEMO_MESSAGES_PER_SUBSCRIBER} with --demo)` },
  fixtures: { env: 'NOVU_MOCK_FIXTURES', kind: 'string', help: 'folder of JSON arrays (subscribers.json, integrations.json, channelConnections.json, messages.json), or one state file as `seed --out` writes', default: 'none' },
  'fixtures-mode': { env: 'NOVU_MOCK_FIXTURES_MODE', kind: 'string', help: 'merge (on top of the seed) | replace (instead of it)', default: 'merge for a folder, replace for a state file' },
  'api-key': { env: 'NOVU_MOCK_API_KEYS', kind: 'list', help: 'accept only this key (repeatable; env: comma-separated)', default: 'any key' },
  db: { env: 'NOVU_MOCK_DB', kind: 'string', help: 'database file (SQLite) that keeps every tenant, created tenant, snapshot and idempotency record across restarts; through better-sqlite3, which npm ci and npm install build: only after an install with --ignore-scripts run npm rebuild better-sqlite3', default: 'in memory' },
  redis: { env: 'NOVU_MOCK_REDIS_URL', kind: 'string', help: 'redis:// or rediss:// URL (credentials in it) that keeps every tenant, created tenant and snapshot, shared by every instance started with it; not with --db', default: 'in memory' },
  'redis-wait-replicas': { env: 'NOVU_MOCK_REDIS_WAIT_REPLICAS', kind: 'integer', help: 'with --redis: a write is acknowledged once this many replicas of its master have it, at most the replicas it has (WAIT; else 503); 0: once its master has it', default: String(DEFAULT_CONFIG.redisWaitReplicas) },
  'max-tenants': { env: 'NOVU_MOCK_MAX_TENANTS', kind: 'integer', help: 'tenants held in memory per instance; the least recently used one with no call in flight is released for a new one', default: String(DEFAULT_CONFIG.maxTenants) },
  'memory-budget': { env: 'NOVU_MOCK_MEMORY_BUDGET', kind: 'string', help: 'bytes an instance holds for its tenants (records, snapshots, fault rules, idempotency records; JSON bytes): 512m, 2g, or bytes; past it the least recently used tenants with no call in flight are released, else 503', default: 'half of V8\'s heap limit' },
  'tenant-ttl': { env: 'NOVU_MOCK_TENANT_TTL', kind: 'string', help: 'with --db or --redis: delete a stored tenant not called for this long (30d, 12h, 90m, 45s or seconds; 0 keeps them for ever)', default: '30d' },
  'journal-size': { env: 'NOVU_MOCK_JOURNAL_SIZE', kind: 'integer', help: 'calls kept per tenant in the request journal', default: String(DEFAULT_CONFIG.journalSize) },
  'admin-token': { env: 'NOVU_MOCK_ADMIN_TOKEN', kind: 'string', help: 'x-admin-token that opens /__admin on a non-loopback host', default: 'none' },
  'rate-limit': { env: 'NOVU_MOCK_RATE_LIMIT', kind: 'string', help: 'enforce <requests>/<seconds> per tenant with 429; a token bucket whose burst is the limit plus 10%, rounded up (3/1 lets 4 calls through at once), as the RateLimit-Policy header says (burst=N)', default: 'counted (100/1), not enforced' },
  envelope: { env: 'NOVU_MOCK_ENVELOPE', kind: 'boolean', help: 'wrap results as {"data": …} like the live service (env: 1 or true)', default: 'off' },
  proxy: { env: 'NOVU_MOCK_PROXY', kind: 'string', help: 'forward the API to this upstream URL and check both directions instead of mocking', default: 'off' },
  'proxy-strict': { env: 'NOVU_MOCK_PROXY_STRICT', kind: 'boolean', help: 'with --proxy: answer 502 when an exchange breaks the contract (env: 1 or true)', default: 'off' },
  'response-validation': { env: 'NOVU_MOCK_RESPONSE_VALIDATION', kind: 'string', help: 'strict | warn | off', default: DEFAULT_CONFIG.responseValidation },
  'cors-origins': { env: 'NOVU_MOCK_CORS_ORIGINS', kind: 'list', help: 'browser origins allowed to call: * (any), comma-separated origins, or none (CORS off)', default: '*' },
  clock: { env: 'NOVU_MOCK_CLOCK', kind: 'string', help: 'every tenant starts with its clock frozen at this ISO 8601 instant, e.g. 2025-01-01T00:00:00.000Z (docs/behaviour.md §8)', default: 'real time' },
  'allowed-hosts': { env: 'NOVU_MOCK_ALLOWED_HOSTS', kind: 'list', help: 'Host names answered beside localhost and loopback addresses (comma-separated; .example.com takes its subdomains), or all (no Host check); any other Host gets 403', default: 'loopback names on a loopback bind; any host elsewhere' },
  'log-level': { env: 'NOVU_MOCK_LOG_LEVEL', kind: 'string', help: 'debug | info | warn | error | silent', default: DEFAULT_CONFIG.logLevel },
  'pid-file': { env: 'NOVU_MOCK_PID_FILE', kind: 'string', help: 'write the server\'s process id to this file once it listens (removed when it stops), for `kill "$(cat FILE)"` in CI', default: 'none' },
  config: { env: 'NOVU_MOCK_CONFIG', kind: 'string', help: 'JSON file of options, keyed by flag name (flag > env > file > default)', default: './novu-mock.config.json if present' },
} as const satisfies Record<string, Flag>

export type FlagName = keyof typeof FLAGS

export const isFlagName = (name: string): name is FlagName => Object.hasOwn(FLAGS, name)

/** The flag a mistyped name most likely meant: one edit per three letters, swaps counting one. */
export function closestFlag(name: string): FlagName | undefined {
  const allowed = Math.max(1, Math.floor(name.length / 3))
  let best: { flag: FlagName; distance: number } | undefined
  for (const flag of Object.keys(FLAGS) as FlagName[]) {
    const distance = editDistance(name, flag)
    if (distance <= allowed && (best === undefined || distance < best.distance)) best = { flag, distance }
  }
  return best?.flag
}

/** Optimal string alignment distance: inserts, deletes, changes and swaps of neighbours. */
function editDistance(a: string, b: string): number {
  const rows: number[][] = [Array.from({ length: b.length + 1 }, (_, j) => j)]
  for (let i = 1; i <= a.length; i++) {
    const row = [i]
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min(rows[i - 1]![j]! + 1, row[j - 1]! + 1, rows[i - 1]![j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1))
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) row[j] = Math.min(row[j]!, rows[i - 2]![j - 2]! + 1)
    }
    rows.push(row)
  }
  return rows[a.length]![b.length]!
}
