import { parseArgs } from 'node:util'
import { readConfigFile, type ConfigValues } from './cli-config-file.ts'
import { closestFlag, FLAGS, type FlagName } from './cli-flags.ts'
import { DEFAULT_CONFIG, defaultVolumes, type ServerConfig } from './config.ts'
import { parseCorsOrigins, type CorsOrigins } from './http/cors.ts'
import type { LogLevel } from './http/logger.ts'
import { parseRateLimit, type RateLimit } from './http/rate-limiter.ts'
import type { ResponseValidation } from './http/respond.ts'
import type { UserFixtures } from './seeding.ts'
import { UsageError } from './usage-error.ts'
import { parseVerify, type VerifyCommand } from './verify/verify-options.ts'

export { FLAGS } from './cli-flags.ts'
export { helpText } from './cli-help.ts'
export { UsageError } from './usage-error.ts'

export const COMMANDS = ['start', 'seed', 'validate-fixtures', 'verify'] as const

export type CliCommand =
  | { kind: 'help' }
  | { kind: 'version' }
  | { kind: 'start'; config: ServerConfig }
  /** Write the state a tenant starts from to `out` (stdout when absent). */
  | { kind: 'seed'; config: ServerConfig; out: string | undefined }
  /** Check `config.fixtures` as a start would, and start nothing. */
  | { kind: 'validate-fixtures'; config: ServerConfig & { fixtures: UserFixtures } }
  | { kind: 'verify-help' }
  | { kind: 'verify'; command: VerifyCommand }

type Values = Record<string, string | string[] | boolean | undefined>

/**
 * argv, the environment and the config file to a command. For each option a flag wins over its
 * variable, the variable over the config file (`cwd`/novu-mock.config.json unless --config names
 * another), and the file over the default.
 */
export function parseCli(argv: readonly string[], env: NodeJS.ProcessEnv, cwd: string): CliCommand {
  const [first, ...rest] = argv
  if (first === 'verify') return verifyCommand(rest, env)
  const named = first !== undefined && !first.startsWith('-')
  const name = named ? first : 'start'
  if (!(COMMANDS as readonly string[]).includes(name)) throw new UsageError(`unknown command "${name}" (commands: ${COMMANDS.join(', ')})`)
  const { values, positionals } = flagsOf(named ? rest : argv, name)
  if (values.help) return { kind: 'help' }
  if (values.version) return { kind: 'version' }
  const file = readConfigFile(flagOrEnv(values, env, 'config'), cwd)
  const read = (flag: FlagName) => flagOrEnv(values, env, flag) ?? file[flag]
  const config = serverConfig(read)
  if (name === 'seed') return { kind: 'seed', config, out: values.out as string | undefined }
  if (name === 'validate-fixtures') return validateCommand(config, positionals, read)
  return { kind: 'start', config }
}

function verifyCommand(argv: readonly string[], env: NodeJS.ProcessEnv): CliCommand {
  try {
    const command = parseVerify(argv, env)
    return command === 'help' ? { kind: 'verify-help' } : { kind: 'verify', command }
  } catch (error) {
    throw new UsageError((error as Error).message)
  }
}

function validateCommand(config: ServerConfig, positionals: string[], read: (flag: FlagName) => string | undefined): CliCommand {
  if (positionals.length > 1) throw new UsageError(`validate-fixtures takes one folder or file, got ${positionals.length}`)
  const fixtures = fixturesOf(positionals[0] ?? read('fixtures'), read('fixtures-mode'))
  if (!fixtures) throw new UsageError('validate-fixtures needs a fixtures folder or state file: novu-mock validate-fixtures <dir>')
  return { kind: 'validate-fixtures', config: { ...config, fixtures } }
}

function flagsOf(args: readonly string[], command: string): { values: Values; positionals: string[] } {
  const options = Object.fromEntries(
    Object.entries(FLAGS).map(([name, flag]) => [name, flag.kind === 'boolean' ? { type: 'boolean' as const } : { type: 'string' as const, multiple: name === 'api-key' }]),
  )
  try {
    return parseArgs({
      args: [...args],
      options: {
        ...options,
        ...(command === 'seed' ? { out: { type: 'string', short: 'o' } } : {}),
        help: { type: 'boolean', short: 'h' },
        version: { type: 'boolean', short: 'v' },
      },
      strict: true,
      allowPositionals: command === 'validate-fixtures',
    })
  } catch (error) {
    const unknown = /^Unknown option '(-{1,2})([^']*)'/.exec((error as Error).message)
    if (!unknown) throw new UsageError((error as Error).message)
    const dashes = unknown[1]!
    const name = unknown[2]!
    const near = dashes === '--' ? closestFlag(name) : undefined
    const hint = name === 'out' || name === 'o' ? ' (only the seed command takes it)' : near ? ` (did you mean --${near}?)` : ''
    throw new UsageError(`Unknown option '${dashes}${name}'${hint}`)
  }
}

/** A flag's text as given on the command line, else its environment variable's. */
function flagOrEnv(values: Values, env: NodeJS.ProcessEnv, name: FlagName): string | undefined {
  const value = values[name]
  if (Array.isArray(value)) return value.join(',')
  if (value === true) return 'true'
  if (typeof value === 'string') return value
  const flag: { env: string; fallbackEnv?: string } = FLAGS[name]
  return env[flag.env] || (flag.fallbackEnv && env[flag.fallbackEnv]) || undefined
}

/** The server's config from options as text keyed by flag name, checked and defaulted as the CLI does. */
export function configFromValues(values: ConfigValues): ServerConfig {
  return serverConfig((flag) => values[flag])
}

function serverConfig(read: (flag: FlagName) => string | undefined): ServerConfig {
  const messages = read('messages')
  const apiKeys = read('api-key')
  const demo = isOn(read('demo'))
  // A volume flag still wins in demo mode; only the fallbacks change.
  const volumes = defaultVolumes(demo)
  return {
    port: integer('port', read('port'), DEFAULT_CONFIG.port, 0),
    host: read('host') ?? DEFAULT_CONFIG.host,
    seed: integer('seed', read('seed'), DEFAULT_CONFIG.seed, 0),
    demo,
    volumes: {
      subscribers: integer('subscribers', read('subscribers'), volumes.subscribers, 2),
      channelConnections: integer('connections', read('connections'), volumes.channelConnections, 0),
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
    corsOrigins: corsOf(read('cors-origins')),
  }
}

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

function corsOf(text: string | undefined): CorsOrigins {
  if (text === undefined) return DEFAULT_CONFIG.corsOrigins
  const origins = parseCorsOrigins(text)
  if (!origins) throw new UsageError(`--cors-origins must be *, none, or comma-separated origins like http://localhost:3000, got "${text}"`)
  return origins
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
