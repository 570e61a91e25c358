import { existsSync, statSync } from 'node:fs'
import { DEFAULT_CONFIG, type ServerConfig } from '../app/config.ts'
import { parseCorsOrigins, type CorsOrigins } from '../http/cors.ts'
import { isAllowedHostEntry, type AllowedHosts } from '../http/host-check.ts'
import type { ResponseValidation } from '../core/answers/response-check.ts'
import type { LogLevel } from '../log/logger.ts'
import { parseRateLimit, type RateLimit } from '../policies/rate-limit/rate-limiter.ts'
import type { SeedFixtures } from '../store/store.ts'
import { defaultVolumes } from '../seed/seed-options.ts'
import { FIRST_INSTANT, LAST_INSTANT } from '../clock/clock-setting.ts'
import { isPrintable } from '../lib/iso-time.ts'
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
  const integer = (flag: FlagName, fallback: number, minimum: number, maximum?: number) => wholeNumber(options(flag), fallback, minimum, maximum)
  const apiKeys = read('api-key')
  const demo = isOn(read('demo'))
  // A volume flag still wins in demo mode; only the fallbacks change.
  const volumes = defaultVolumes(demo)
  return {
    port: integer('port', DEFAULT_CONFIG.port, 0, MAX_PORT),
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
    redisWaitReplicas: integer('redis-wait-replicas', DEFAULT_CONFIG.redisWaitReplicas, 0),
    maxTenants: integer('max-tenants', DEFAULT_CONFIG.maxTenants, 1),
    memoryBudget: sizeOf(options('memory-budget')) ?? DEFAULT_CONFIG.memoryBudget,
    tenantTtlMs: durationOf(options('tenant-ttl')) ?? DEFAULT_CONFIG.tenantTtlMs,
    journalSize: integer('journal-size', DEFAULT_CONFIG.journalSize, 0),
    adminToken: read('admin-token'),
    rateLimit: rateLimitOf(options('rate-limit')),
    envelope: isOn(read('envelope')),
    proxy: proxyOf(options('proxy'), isOn(read('proxy-strict'))),
    responseValidation: oneOf<ResponseValidation>(options('response-validation'), ['strict', 'warn', 'off']) ?? DEFAULT_CONFIG.responseValidation,
    logLevel: oneOf<LogLevel>(options('log-level'), ['debug', 'info', 'warn', 'error', 'silent']) ?? DEFAULT_CONFIG.logLevel,
    corsOrigins: corsOf(options('cors-origins')),
    clock: clockOf(options('clock')),
    allowedHosts: allowedHostsOf(options('allowed-hosts')),
  }
}

/** The instant of `--clock`: a full ISO 8601 date and time with its zone, as `PUT /__admin/clock` takes it. */
function clockOf(given: Given | undefined): number | undefined {
  if (given === undefined) return undefined
  const ms = ISO_INSTANT.test(given.text) ? Date.parse(given.text) : NaN
  if (!Number.isFinite(ms)) throw new UsageError(`${given.source} must be an ISO 8601 instant like 2025-01-01T00:00:00.000Z, got "${given.text}"`)
  if (!isPrintable(ms)) throw new UsageError(`${given.source} must be within ${FIRST_INSTANT} and ${LAST_INSTANT}, got "${given.text}"`)
  return ms
}

const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i

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

/**
 * A state file (what `seed --out` writes) is a whole state: replaced, unless `--fixtures-mode`
 * says merge. A folder of record files merges on top of the seed (docs/cli.md).
 */
export function fixturesOf(dir: string | undefined, mode: Given | undefined): SeedFixtures | undefined {
  // Checked first: a bad mode is a usage error even without fixtures.
  const chosen = oneOf<SeedFixtures['mode']>(mode, ['merge', 'replace'])
  if (dir === undefined) return undefined
  if (chosen !== undefined) return { dir, mode: chosen }
  return isFile(dir) ? { dir, mode: 'replace', why: 'a state file is the whole state; --fixtures-mode merge adds it to the seed' } : { dir, mode: 'merge' }
}

const isFile = (path: string): boolean => existsSync(path) && statSync(path).isFile()

function rateLimitOf(given: Given | undefined): RateLimit | undefined {
  if (given === undefined) return undefined
  const rate = parseRateLimit(given.text)
  if (!rate) throw new UsageError(`${given.source} must look like 100/1 (requests/seconds), got "${given.text}"`)
  return rate
}

const UNIT_MS: Readonly<Record<string, number>> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 }

/** `30d`, `12h`, `90m`, `45s`, or a whole number of seconds, in milliseconds; `0`: for ever. */
function durationOf(given: Given | undefined): number | undefined {
  if (given === undefined) return undefined
  const match = /^(\d+)([smhd]?)$/.exec(given.text.trim())
  const ms = match ? Number(match[1]) * UNIT_MS[match[2] || 's']! : NaN
  if (!Number.isSafeInteger(ms)) throw new UsageError(`${given.source} must be a duration like 30d, 12h, 90m, 45s or a number of seconds (0: for ever), got "${given.text}"`)
  return ms
}

const UNIT_BYTES: Readonly<Record<string, number>> = { '': 1, k: 2 ** 10, m: 2 ** 20, g: 2 ** 30 }

/** `512m`, `2g`, `64k` (binary units, any case) or a whole number of bytes, at least 1 MiB. */
function sizeOf(given: Given | undefined): number | undefined {
  if (given === undefined) return undefined
  const match = /^(\d+)([kmg]?)b?$/i.exec(given.text.trim())
  const bytes = match ? Number(match[1]) * UNIT_BYTES[match[2]!.toLowerCase()]! : NaN
  if (!Number.isSafeInteger(bytes) || bytes < 2 ** 20) throw new UsageError(`${given.source} must be a size like 512m, 2g or a number of bytes (at least 1m), got "${given.text}"`)
  return bytes
}

function corsOf(given: Given | undefined): CorsOrigins {
  if (given === undefined) return DEFAULT_CONFIG.corsOrigins
  const origins = parseCorsOrigins(given.text)
  if (!origins) throw new UsageError(`${given.source} must be *, none, or comma-separated origins like http://localhost:3000, got "${given.text}"`)
  return origins
}

function allowedHostsOf(given: Given | undefined): AllowedHosts | undefined {
  if (given === undefined) return undefined
  if (given.text.trim() === 'all') return 'all'
  const names = given.text.split(',').map((name) => name.trim()).filter(Boolean)
  const bad = names.find((name) => !isAllowedHostEntry(name))
  if (names.length === 0 || bad !== undefined) {
    const which = bad === undefined ? '' : `: "${bad}" is none`
    throw new UsageError(`${given.source} must be all or comma-separated host names like mock.test,.example.com (no port), got "${given.text}"${which}`)
  }
  return names
}

/** The largest TCP port: above it Node throws a RangeError at listen, so it is refused here as a usage error. */
const MAX_PORT = 65_535

function wholeNumber(given: Given | undefined, fallback: number, minimum: number, maximum = Number.MAX_SAFE_INTEGER): number {
  if (given === undefined) return fallback
  const value = given.text.trim() === '' ? NaN : Number(given.text)
  const range = maximum === Number.MAX_SAFE_INTEGER ? `of at least ${minimum}` : `from ${minimum} to ${maximum}`
  if (!Number.isSafeInteger(value) || value < minimum || value > maximum) throw new UsageError(`${given.source} must be a whole number ${range}, got "${given.text}"`)
  return value
}

function oneOf<T extends string>(given: Given | undefined, allowed: readonly T[]): T | undefined {
  if (given === undefined) return undefined
  if (!(allowed as readonly string[]).includes(given.text)) throw new UsageError(`${given.source} must be one of ${allowed.join(', ')}, got "${given.text}"`)
  return given.text as T
}
