import type { ConfigValues } from '../options/config-file.ts'
import { flagText } from '../options/config-file.ts'
import { closestFlag, FLAGS, isFlagName, type FlagName } from '../options/flags.ts'
import { configFromValues } from '../options/server-config.ts'
import type { ServerConfig } from '../app/config.ts'
import { UsageError } from '../options/usage-error.ts'
import type { MockServerOptions } from './types.ts'

/** The flags the library takes: all but `--config`, since it reads no file, and `--pid-file`, since the server is the caller's own process. */
type OptionFlag = Exclude<FlagName, 'config' | 'pid-file'>
type CamelCase<S extends string> = S extends `${infer Head}-${infer Tail}` ? `${Head}${Capitalize<CamelCase<Tail>>}` : S
type OptionName<F extends OptionFlag> = F extends 'api-key' ? 'apiKeys' : CamelCase<F>
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false

// Compiles only while MockServerOptions names every flag but --config and --pid-file, camelCased, and nothing else.
true satisfies Same<keyof MockServerOptions, OptionName<OptionFlag>>

/** `--api-key` is repeatable, so its option holds the list: `apiKeys`. */
const optionName = (flag: FlagName): string => (flag === 'api-key' ? 'apiKeys' : flag.replace(/-([a-z])/g, (_, letter: string) => letter.toUpperCase()))

const FLAG_OF: ReadonlyMap<string, FlagName> = new Map(
  (Object.keys(FLAGS) as FlagName[]).filter((flag) => flag !== 'config' && flag !== 'pid-file').map((flag) => [optionName(flag), flag]),
)

/** The library's defaults where they differ from the CLI's: any free port, no log lines. */
const LIBRARY_DEFAULTS: ConfigValues = { port: '0', 'log-level': 'silent' }

/**
 * The server's config from startMockServer's options: each turned into its flag's text and read
 * by the CLI's own parser, so checks and defaults are the CLI's. A problem names the option, and
 * `door`, the function the caller called.
 */
export function serverConfigOf(options: MockServerOptions, door = 'startMockServer'): ServerConfig {
  const values: ConfigValues = { ...LIBRARY_DEFAULTS }
  for (const [name, value] of Object.entries(options)) {
    const flag = FLAG_OF.get(name)
    if (flag === undefined) throw new UsageError(`${door}: unknown option "${name}"${hint(name)}`)
    if (value !== undefined) values[flag] = flagText(flag, value, `${door}: option "${name}"`)
  }
  try {
    return configFromValues(values)
  } catch (error) {
    if (!(error instanceof UsageError)) throw error
    // The parser names flags (`--max-tenants must be …`); the caller wrote options.
    const named = error.message.replace(/--([a-z-]+)/g, (text, flag: string) => (isFlagName(flag) ? `option "${optionName(flag)}"` : text))
    throw new UsageError(`${door}: ${named}`)
  }
}

function hint(name: string): string {
  const kebab = name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)
  const near = closestFlag(kebab)
  return near === undefined || near === 'config' ? '' : ` (did you mean "${optionName(near)}"?)`
}
