import { parseArgs } from 'node:util'
import { parseVerify, type VerifyCommand } from './verify/verify-options.ts'
import { DEFAULT_CONFIG, type ServerConfig } from './config.ts'
import type { LogLevel } from './http/logger.ts'
import { parseRateLimit, type RateLimit } from './http/rate-limiter.ts'
import type { ResponseValidation } from './http/respond.ts'
import type { UserFixtures } from './seeding.ts'

/** Every flag, its environment variable, and its help line: the one table the CLI is built from. */
export const FLAGS = {
  port: { env: 'PORT', help: 'port to listen on', default: String(DEFAULT_CONFIG.port) },
  host: { env: 'HOST', help: 'address to bind', default: DEFAULT_CONFIG.host },
  seed: { env: 'NOVU_MOCK_SEED', help: 'seed of the generated records', default: String(DEFAULT_CONFIG.seed) },
  subscribers: { env: 'NOVU_MOCK_SUBSCRIBERS', help: 'subscribers per tenant, the 2 well-known included', default: '50' },
  connections: { env: 'NOVU_MOCK_CONNECTIONS', help: 'channel connections per tenant', default: '120' },
  messages: { env: 'NOVU_MOCK_MESSAGES', help: 'messages per tenant, the 13 well-known included', default: '13 + 5 per generated subscriber' },
  fixtures: { env: 'NOVU_MOCK_FIXTURES', help: 'folder of JSON records (subscribers.json, integrations.json, channelConnections.json, messages.json)', default: 'none' },
  'fixtures-mode': { env: 'NOVU_MOCK_FIXTURES_MODE', help: 'merge (on top of the seed) | replace (instead of it)', default: 'merge' },
  'api-key': { env: 'NOVU_MOCK_API_KEYS', help: 'accept only this key (repeatable; env: comma-separated)', default: 'any key' },
  db: { env: 'NOVU_MOCK_DB', help: 'JSON file that keeps every tenant across restarts', default: 'in memory' },
  'max-tenants': { env: 'NOVU_MOCK_MAX_TENANTS', help: 'tenants kept at once', default: String(DEFAULT_CONFIG.maxTenants) },
  'journal-size': { env: 'NOVU_MOCK_JOURNAL_SIZE', help: 'calls kept per tenant in the request journal', default: String(DEFAULT_CONFIG.journalSize) },
  'admin-token': { env: 'NOVU_MOCK_ADMIN_TOKEN', help: 'x-admin-token that opens /__admin on a non-loopback host', default: 'none' },
  'rate-limit': { env: 'NOVU_MOCK_RATE_LIMIT', help: 'enforce <requests>/<seconds> per tenant with 429', default: 'counted (100/1), not enforced' },
  envelope: { env: 'NOVU_MOCK_ENVELOPE', help: 'wrap results as {"data": …} like the live service (env: 1 or true)', default: 'off' },
  proxy: { env: 'NOVU_MOCK_PROXY', help: 'forward the API to this upstream URL and check both directions instead of mocking', default: 'off' },
  'proxy-strict': { env: 'NOVU_MOCK_PROXY_STRICT', help: 'with --proxy: answer 502 when an exchange breaks the contract', default: 'off' },
  'response-validation': { env: 'NOVU_MOCK_RESPONSE_VALIDATION', help: 'strict | warn | off', default: DEFAULT_CONFIG.responseValidation },
  'log-level': { env: 'NOVU_MOCK_LOG_LEVEL', help: 'debug | info | warn | error | silent', default: DEFAULT_CONFIG.logLevel },
} as const

type FlagName = keyof typeof FLAGS

export class UsageError extends Error {}

export type CliCommand =
  | { kind: 'help' }
  | { kind: 'version' }
  | { kind: 'start'; config: ServerConfig }
  | { kind: 'verify-help' }
  | { kind: 'verify'; command: VerifyCommand }

/** argv and the environment to a command; a flag wins over its variable, both over the default. */
export function parseCli(argv: readonly string[], env: NodeJS.ProcessEnv): CliCommand {
  if (argv[0] === 'verify') {
    try {
      const command = parseVerify(argv.slice(1), env)
      return command === 'help' ? { kind: 'verify-help' } : { kind: 'verify', command }
    } catch (error) {
      throw new UsageError((error as Error).message)
    }
  }
  if (argv[0] === 'start') argv = argv.slice(1)
  const options = Object.fromEntries(
    Object.keys(FLAGS).map((name) => [name, BOOLEAN_FLAGS.has(name) ? { type: 'boolean' as const } : { type: 'string' as const, multiple: name === 'api-key' }]),
  )
  let values: Record<string, string | string[] | boolean | undefined>
  try {
    ;({ values } = parseArgs({
      args: [...argv],
      options: { ...options, help: { type: 'boolean', short: 'h' }, version: { type: 'boolean', short: 'v' } },
      strict: true,
      allowPositionals: false,
    }))
  } catch (error) {
    throw new UsageError((error as Error).message)
  }
  if (values.help) return { kind: 'help' }
  if (values.version) return { kind: 'version' }
  const read = (name: FlagName): string | undefined => {
    const value = values[name]
    if (Array.isArray(value)) return value.join(',')
    if (value === true) return 'true'
    return typeof value === 'string' ? value : env[FLAGS[name].env] || undefined
  }
  const messages = read('messages')
  const apiKeys = read('api-key')
  return {
    kind: 'start',
    config: {
      port: integer('port', read('port'), DEFAULT_CONFIG.port, 0),
      host: read('host') ?? DEFAULT_CONFIG.host,
      seed: integer('seed', read('seed'), DEFAULT_CONFIG.seed, 0),
      volumes: {
        subscribers: integer('subscribers', read('subscribers'), DEFAULT_CONFIG.volumes.subscribers, 2),
        channelConnections: integer('connections', read('connections'), DEFAULT_CONFIG.volumes.channelConnections, 0),
        ...(messages === undefined ? {} : { messages: integer('messages', messages, 0, 13) }),
      },
      fixtures: fixturesOf(read('fixtures'), read('fixtures-mode')),
      apiKeys: apiKeys === undefined ? [] : apiKeys.split(',').map((k) => k.trim()).filter(Boolean),
      db: read('db'),
      maxTenants: integer('max-tenants', read('max-tenants'), DEFAULT_CONFIG.maxTenants, 1),
      journalSize: integer('journal-size', read('journal-size'), DEFAULT_CONFIG.journalSize, 0),
      adminToken: read('admin-token'),
      rateLimit: rateLimitOf(read('rate-limit')),
      envelope: isOn(read('envelope')),
      proxy: proxyOf(read('proxy'), isOn(read('proxy-strict'))),
      responseValidation: oneOf<ResponseValidation>('response-validation', read('response-validation'), ['strict', 'warn', 'off']) ?? DEFAULT_CONFIG.responseValidation,
      logLevel: oneOf<LogLevel>('log-level', read('log-level'), ['debug', 'info', 'warn', 'error', 'silent']) ?? DEFAULT_CONFIG.logLevel,
    },
  }
}

const BOOLEAN_FLAGS: ReadonlySet<string> = new Set(['envelope', 'proxy-strict'])
const isOn = (value: string | undefined) => value === '1' || value === 'true'

function proxyOf(upstream: string | undefined, strict: boolean): ServerConfig['proxy'] {
  if (upstream === undefined) return undefined
  if (!URL.canParse(upstream)) throw new UsageError(`--proxy must be a URL, got "${upstream}"`)
  return { upstream, strict }
}

function fixturesOf(dir: string | undefined, mode: string | undefined): UserFixtures | undefined {
  const chosen = oneOf<UserFixtures['mode']>('fixtures-mode', mode, ['merge', 'replace']) ?? 'merge'
  return dir === undefined ? undefined : { dir, mode: chosen }
}

function rateLimitOf(text: string | undefined): RateLimit | undefined {
  if (text === undefined) return undefined
  const rate = parseRateLimit(text)
  if (!rate) throw new UsageError(`--rate-limit must look like 100/1 (requests/seconds), got "${text}"`)
  return rate
}

function integer(name: string, text: string | undefined, fallback: number, minimum: number): number {
  if (text === undefined) return fallback
  const value = Number(text)
  if (!Number.isSafeInteger(value) || value < minimum) throw new UsageError(`--${name} must be a whole number of at least ${minimum}, got "${text}"`)
  return value
}

function oneOf<T extends string>(name: string, text: string | undefined, allowed: readonly T[]): T | undefined {
  if (text === undefined) return undefined
  if (!(allowed as readonly string[]).includes(text)) throw new UsageError(`--${name} must be one of ${allowed.join(', ')}, got "${text}"`)
  return text as T
}

export function helpText(): string {
  const rows = Object.entries(FLAGS).map(
    ([name, flag]) => `  --${name.padEnd(21)} ${flag.help} (default: ${flag.default}; env ${flag.env})`,
  )
  return ['Usage: novu-mock [start] [options]', '       novu-mock verify --target <url> --api-key <key> [options]  (novu-mock verify --help)', '', 'A stateful mock of five Novu API operations.', '', 'Options:', ...rows, `  ${'-h, --help'.padEnd(23)} this text`, `  ${'-v, --version'.padEnd(23)} the version`, ''].join('\n')
}
