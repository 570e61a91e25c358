import { createHash } from 'node:crypto'
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import type { TenantState } from '../store/records.ts'
import { FixtureError } from './fixture-error.ts'

/** The kinds every state holds (a state file lists them all). */
export type Kind = Exclude<keyof TenantState, 'workflows'>
export const KINDS: readonly Kind[] = ['subscribers', 'integrations', 'channelConnections', 'messages']

/** The kinds a state may leave out: `workflows`, which a tenant has only when given (docs/behaviour.md §11). */
export const OPTIONAL_KINDS = ['workflows'] as const

/** Every file name a fixtures folder is looked in for, as the usage error lists them. */
export const FIXTURE_NAMES: readonly string[] = [...KINDS, ...OPTIONAL_KINDS].map((kind) => `${kind}.json`)

/** A folder given with no file of FIXTURE_NAMES: a mistake in the call (exit 2), not in a record. */
export class NoFixtureFiles extends FixtureError {}

/**
 * The files `fixtures` names: the state file itself, or the folder's files of FIXTURE_NAMES that
 * exist. A folder holding none of them is refused, naming what it holds: a misnamed file
 * (`subscriber.json`) must not start the seed alone in silence.
 */
export function fixtureFiles(path: string): string[] {
  if (!existsSync(path)) throw new FixtureError(`${path}: no such fixtures folder or file`)
  if (statSync(path).isFile()) return [path]
  const found = FIXTURE_NAMES.map((name) => join(path, name)).filter((file) => existsSync(file))
  if (found.length > 0) return found
  const held = jsonFilesIn(path)
  const holds = held.length === 0 ? 'it holds no .json file' : `it holds ${held.join(', ')}`
  throw new NoFixtureFiles(`${path}: no fixtures file in this folder (${holds}); a fixtures folder holds one or more of ${FIXTURE_NAMES.join(', ')}, or give one state file as seed --out writes`)
}

/** The CLI's config file (options/config-file.ts) may sit in the folder it names as fixtures: not a fixture, not warned of. */
const CONFIG_FILE = 'novu-mock.config.json'

/** The `.json` files of a fixtures folder that it does not read: each is named in a warning. */
export function unknownFixtureFiles(path: string): string[] {
  if (statSync(path).isFile()) return []
  return jsonFilesIn(path).filter((name) => !FIXTURE_NAMES.includes(name) && name !== CONFIG_FILE)
}

const jsonFilesIn = (dir: string) => readdirSync(dir).filter((name) => name.endsWith('.json')).sort()

/** A digest of what the fixtures hold now: which files, and their bytes. */
export function fixturesDigest(path: string): string {
  const hash = createHash('sha256')
  for (const file of fixtureFiles(path)) hash.update(`${file}\0`).update(readFileSync(file)).update('\0')
  return hash.digest('hex')
}
