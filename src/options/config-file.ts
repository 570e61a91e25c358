import { existsSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { closestFlag, FLAGS, isFlagName, type FlagKind, type FlagName } from './flags.ts'
import { UsageError } from './usage-error.ts'

/** Read from the current directory when no --config names another file. */
export const CONFIG_FILE = 'novu-mock.config.json'

/** A config file's options as text, the form env values have, so one parser reads both. */
export type ConfigValues = Partial<Record<FlagName, string>>

const EXPECTED: Record<FlagKind, string> = {
  integer: 'a whole number',
  string: 'a string',
  boolean: 'true or false',
  list: 'a string or an array of strings',
}

/**
 * The options of the config file `path` names (it must exist), or of ./novu-mock.config.json if
 * there is one. Paths inside it are read relative to the current directory, as flags are.
 */
export function readConfigFile(path: string | undefined, cwd: string): ConfigValues {
  const file = configFileRead(path, cwd)
  if (file === undefined) return {}
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch (error) {
    throw new UsageError(`cannot read the config file ${file} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`)
  }
  return configValues(text, path ?? CONFIG_FILE)
}

/** The file `readConfigFile` reads for these arguments, or undefined when it reads none. */
export function configFileRead(path: string | undefined, cwd: string): string | undefined {
  const file = path === undefined ? join(cwd, CONFIG_FILE) : resolve(cwd, path)
  return path === undefined && !existsSync(file) ? undefined : file
}

/** Checks every key and type; the first problem is a usage error naming the file and key. */
export function configValues(text: string, file: string): ConfigValues {
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch (error) {
    throw new UsageError(`${file}: not valid JSON (${(error as Error).message})`)
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw new UsageError(`${file}: expected a JSON object of options keyed by flag name`)
  const values: ConfigValues = {}
  for (const [key, value] of Object.entries(parsed)) {
    // `config` names this file, so it cannot be set from inside it.
    if (!isFlagName(key) || key === 'config') {
      const near = closestFlag(key)
      throw new UsageError(`${file}: unknown key "${key}"${near && near !== 'config' ? ` (did you mean "${near}"?)` : ''}`)
    }
    values[key] = flagText(key, value, `${file}: "${key}"`)
  }
  return values
}

/** A flag's value as JSON types it (the config file's, the library's options), as text; `name` names it in the error. */
export function flagText(flag: FlagName, value: unknown, name: string): string {
  const kind: FlagKind = FLAGS[flag].kind
  if (kind === 'integer' && Number.isSafeInteger(value)) return String(value)
  if ((kind === 'string' || kind === 'list') && typeof value === 'string') return value
  if (kind === 'boolean' && typeof value === 'boolean') return String(value)
  if (kind === 'list' && Array.isArray(value) && value.every((item) => typeof item === 'string')) return value.join(',')
  throw new UsageError(`${name} must be ${EXPECTED[kind]}, got ${JSON.stringify(value)}`)
}
