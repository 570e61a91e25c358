import { parseArgs } from 'node:util'
import { CONFIG_FILE, readConfigFile, type ConfigValues } from '../options/config-file.ts'
import { closestFlag, FLAGS, type FlagName } from '../options/flags.ts'
import { DEFAULT_CONFIG, defaultVolumes, type ServerConfig } from '../app/config.ts'
import { parseCorsOrigins, type CorsOrigins } from '../http/cors.ts'
import type { LogLevel } from '../log/logger.ts'
import { parseRateLimit, type RateLimit } from '../policies/rate-limiter.ts'
import type { ResponseValidation } from '../http/respond.ts'
import type { UserFixtures } from '../seed/seeding.ts'
import { UsageError } from '../options/usage-error.ts'
import { parseVerify, type VerifyCommand } from '../verify/verify-options.ts'

export { FLAGS } from '../options/flags.ts'
export { helpText } from './help.ts'
export { UsageError } from '../options/usage-error.ts'

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
  const configPath = flagOrEnv(values, env, 'config')?.text
  const file = readConfigFile(configPath, cwd)
  const options: Options = (flag) => {
    const given = flagOrEnv(values, env, flag)
    if (given !== undefined) return given
    const text = file[flag]
    return text === undefined ? undefined : { text, source: `${configPath ?? CONFIG_FILE}: "${flag}"` }
  }
  const config = serverConfig(options)
  if (name === 'seed') return { kind: 'seed', config, out: values.out as string | undefined }
  if (name === 'validate-fixtures') return validateCommand(config, positionals, options)
  return { kind: 'start', config }
}

/** An option's text and where it was set, as a message names it: `--port`, `NOVU_MOCK_PORT`, or the config file's key. */
interface Given {
  text: string
  source: string
}

type Options = (flag: FlagName) => Given | undefined

function verifyCommand(argv: readonly string[], env: NodeJS.ProcessEnv): CliCommand {
  try {
    const command = parseVerify(argv, env)
    return command === 'help' ? { kind: 'verify-help' } : { kind: 'verify', command }
  } catch (error) {
    throw new UsageError((error as Error).message)
  }
}

function validateCommand(config: ServerConfig, positionals: string[], options: Options): CliCommand {
  if (positionals.length > 1) throw new UsageError(`validate-fixtures takes one folder or file, got ${positionals.length}`)
  const fixtures = fixturesOf(positionals[0] ?? options('fixtures')?.text, options('fixtures-mode'))
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

/** A flag's text as given on the command line, else its environment variable's, with where it came from. */
function flagOrEnv(values: Values, env: NodeJS.ProcessEnv, name: FlagName): Given | undefined {
  const value = values[name]
  const source = `--${name}`
  if (Array.isArray(value)) return { text: value.join(','), source }
  if (value === true) return { text: 'true', source }
  if (typeof value === 'string') return { text: value, source }
  const flag: { env: string; fallbackEnv?: string } = FLAGS[name]
  for (const variable of [flag.env, flag.fallbackEnv]) {
    if (variable !== undefined && env[variable]) return { text: env[variable], source: variable }
  }
  return undefined
}

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

function serverConfig(options: Options): ServerConfig {
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

const isOn = (value: string | undefined) => value === '1' || value === 'true'

function proxyOf(upstream: Given | undefined, strict: boolean): ServerConfig['proxy'] {
  if (upstream === undefined) return undefined
  if (!URL.canParse(upstream.text)) throw new UsageError(`${upstream.source} must be a URL, got "${upstream.text}"`)
  return { upstream: upstream.text, strict }
}

function fixturesOf(dir: string | undefined, mode: Given | undefined): UserFixtures | undefined {
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
