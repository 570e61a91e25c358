import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { WELL_KNOWN_FILES } from './well-known-files.ts'
import { packagePath } from '../lib/package-path.ts'
import type { TenantState } from '../store/records.ts'
import type { SeedSpec } from '../store/store.ts'

/** The seeds the build writes: the default one and the demo one, each as `GET /__admin/state` shows it. */
export const PREBUILT_SEED_DIR = packagePath('dist/seeds')

/**
 * Only the build's own code reads them: it was compiled with the generators that wrote them. Run
 * from the sources (the tests), the generators may have changed since, so they run instead.
 */
const RUNNING_FROM_BUILD = import.meta.url.includes('/dist/')

/**
 * The seeded state for these options as the build generated it, when the well-known fixture files
 * have not changed since: generating it (and loading faker to do so) is a fifth of the start-up.
 * The build's generators are the code that would run otherwise, so the state is the same.
 */
export function prebuiltSeed(options: SeedSpec, dir = RUNNING_FROM_BUILD ? PREBUILT_SEED_DIR : undefined): TenantState | undefined {
  if (dir === undefined) return undefined
  const file = join(dir, fileNameOf(options))
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as TenantState) : undefined
}

export function writePrebuiltSeed(options: SeedSpec, state: TenantState, dir = PREBUILT_SEED_DIR): void {
  mkdirSync(dir, { recursive: true })
  writeFileSync(join(dir, fileNameOf(options)), JSON.stringify(state))
}

function fileNameOf({ seed, subscribers, channelConnections, messages, demo }: SeedSpec): string {
  const hash = createHash('sha256').update(JSON.stringify([seed, subscribers, channelConnections, messages ?? null, demo ?? false]))
  for (const file of Object.values(WELL_KNOWN_FILES)) hash.update(readFileSync(file))
  return `${hash.digest('hex').slice(0, 32)}.json`
}
