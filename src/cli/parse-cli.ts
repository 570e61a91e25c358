import { parseArgs } from 'node:util'
import type { ServerConfig } from '../app/config.ts'
import type { SeedFixtures } from '../store/store.ts'
import { CONFIG_FILE, configFileRead, readConfigFile } from '../options/config-file.ts'
import { closestFlag, FLAGS, type FlagName } from '../options/flags.ts'
import { fixturesOf, serverConfig, type Given, type Options } from '../options/server-config.ts'
import { UsageError } from '../options/usage-error.ts'
import { parseVerify, type VerifyCommand } from '../verify/verify-options.ts'

export { FLAGS } from '../options/flags.ts'
export { helpText } from './help.ts'
export { UsageError } from '../options/usage-error.ts'

export const COMMANDS = ['start', 'seed', 'validate-fixtures', 'verify'] as const

export type CliCommand =
  | { kind: 'help' }
  | { kind: 'version' }
  /** `pidFile`: where to write the process id once listening (`--pid-file`); `configFile`: the config file read, if any. */
  | { kind: 'start'; config: ServerConfig; pidFile?: string | undefined; configFile?: string | undefined }
  /** Write the state a tenant starts from to `out` (stdout when absent). */
  | { kind: 'seed'; config: ServerConfig; out: string | undefined }
  /** Check `config.fixtures` as a start would, and start nothing. */
  | { kind: 'validate-fixtures'; config: ServerConfig & { fixtures: SeedFixtures } }
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
  return { kind: 'start', config, pidFile: options('pid-file')?.text, configFile: configFileRead(configPath, cwd) }
}


function verifyCommand(argv: readonly string[], env: NodeJS.ProcessEnv): CliCommand {
  try {
    const command = parseVerify(argv, env)
    return command === 'help' ? { kind: 'verify-help' } : { kind: 'verify', command }
  } catch (error) {
    throw new UsageError((error as Error).message, 'novu-mock verify --help')
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

