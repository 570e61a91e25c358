import { DEFAULT_CONFIG, type ServerConfig } from '../app/config.ts'
import { parseCorsOrigins, type CorsOrigins } from '../http/cors.ts'
import type { ResponseValidation } from '../core/check-answer.ts'
import type { LogLevel } from '../log/logger.ts'
import { parseRateLimit, type RateLimit } from '../policies/rate-limiter.ts'
import type { UserFixtures } from '../seed/seeding.ts'
import { defaultVolumes } from '../seed/seed-options.ts'
import type { ConfigValues } from './config-file.ts'
import type { FlagName } from './flags.ts'
import { UsageError } from './usage-error.ts'

/** An option's text and where it was set, as a message names it: `--port`, `NOVU_MOCK_PORT`, or the config file's key. */
export interface Given {
  text: string
  source: string
}

export type Options = (flag: FlagName) => Given | undefined

/**
 * The server's config from options as text keyed by flag name, checked and defaulted as the CLI
 * does; a problem names the flag (`--port`), which the library renames to its option.
 */
export function configFromValues(values: ConfigValues): ServerConfig {
  return serverConfig((flag) => {
    const text = values[flag]
    return text === undefined ? undefined : { text, source: `--${flag}` }
  })
}

export function serverConfig(options: Options): ServerConfig {
  const read = (flag: FlagName) => options(flag)?.text
  const integer = (flag: FlagName, fallback: number, minimum: number) => wholeNumber(options(flag), fallback, minimum)
  const apiKeys = read('api-key')
  const demo = isOn(read('demo'))
  // A volume flag still wins in demo mode; only the fallbacks change.
  const volumes = defaultVolumes(demo)
  return {
    port: integer('port', DEFAULT_CONFIG.port, 0),
    host: read('host') ?? DEFAULT_CONFIG.host,
    seed: integer('seed', DEFAULT_CONFIG.seed, 0),
    demo,
    volumes: {
      subscribers: integer('subscribers', volumes.subscribers, 2),
      channelConnections: integer('connections', volumes.channelConnections, 0),
      ...(read('messages') === undefined ? {} : { messages: integer('messages', 0, 13) }),
    },
    fixtures: fixturesOf(read('fixtures'), options('fixtures-mode')),
    apiKeys: apiKeys === undefined ? [] : apiKeys.split(',').map((k) => k.trim()).filter(Boolean),
    db: read('db'),
    redis: redisOf(options('redis'), read('db')),
    maxTenants: integer('max-tenants', DEFAULT_CONFIG.maxTenants, 1),
    journalSize: integer('journal-size', DEFAULT_CONFIG.journalSize, 0),
    adminToken: read('admin-token'),
    rateLimit: rateLimitOf(options('rate-limit')),
    envelope: isOn(read('envelope')),
    proxy: proxyOf(options('proxy'), isOn(read('proxy-strict'))),
    responseValidation: oneOf<ResponseValidation>(options('response-validation'), ['strict', 'warn', 'off']) ?? DEFAULT_CONFIG.responseValidation,
    logLevel: oneOf<LogLevel>(options('log-level'), ['debug', 'info', 'warn', 'error', 'silent']) ?? DEFAULT_CONFIG.logLevel,
    corsOrigins: corsOf(options('cors-origins')),
  }
}

function redisOf(url: Given | undefined, db: string | undefined): string | undefined {
  if (url === undefined) return undefined
  if (db !== undefined) throw new UsageError(`${url.source} and --db keep the state in two places: give one of them`)
  if (!/^rediss?:\/\/./.test(url.text)) throw new UsageError(`${url.source} must be a redis:// or rediss:// URL`)
  return url.text
}

const isOn = (value: string | undefined) => value === '1' || value === 'true'

function proxyOf(upstream: Given | undefined, strict: boolean): ServerConfig['proxy'] {
  if (upstream === undefined) return undefined
  if (!URL.canParse(upstream.text)) throw new UsageError(`${upstream.source} must be a URL, got "${upstream.text}"`)
  return { upstream: upstream.text, strict }
}

export function fixturesOf(dir: string | undefined, mode: Given | undefined): UserFixtures | undefined {
  const chosen = oneOf<UserFixtures['mode']>(mode, ['merge', 'replace']) ?? 'merge'
  return dir === undefined ? undefined : { dir, mode: chosen }
}

function rateLimitOf(given: Given | undefined): RateLimit | undefined {
  if (given === undefined) return undefined
  const rate = parseRateLimit(given.text)
  if (!rate) throw new UsageError(`${given.source} must look like 100/1 (requests/seconds), got "${given.text}"`)
  return rate
}

function corsOf(given: Given | undefined): CorsOrigins {
  if (given === undefined) return DEFAULT_CONFIG.corsOrigins
  const origins = parseCorsOrigins(given.text)
  if (!origins) throw new UsageError(`${given.source} must be *, none, or comma-separated origins like http://localhost:3000, got "${given.text}"`)
  return origins
}

function wholeNumber(given: Given | undefined, fallback: number, minimum: number): number {
  if (given === undefined) return fallback
  const value = given.text.trim() === '' ? NaN : Number(given.text)
  if (!Number.isSafeInteger(value) || value < minimum) throw new UsageError(`${given.source} must be a whole number of at least ${minimum}, got "${given.text}"`)
  return value
}

function oneOf<T extends string>(given: Given | undefined, allowed: readonly T[]): T | undefined {
  if (given === undefined) return undefined
  if (!(allowed as readonly string[]).includes(given.text)) throw new UsageError(`${given.source} must be one of ${allowed.join(', ')}, got "${given.text}"`)
  return given.text as T
}
