import type { SeedSpec } from './store.ts'

/** What a store (a file, or Redis) records of the seed its tenants' rows lie over. */
export interface FileSeed extends SeedSpec {
  /** The user's fixtures under the seed, and a digest of their content. */
  fixtures?: { dir: string; mode: 'merge' | 'replace'; digest: string } | undefined
  /** `--clock` (ISO 8601), recorded in Redis so that every instance starts its tenants at the same time. */
  clock?: string | undefined
}

/** The options as a start compares them: a missing `demo` or `messages` is its default. */
const canonical = (seed: FileSeed) =>
  JSON.stringify([seed.seed, seed.demo ?? false, seed.subscribers, seed.channelConnections, seed.messages ?? null, seed.fixtures ?? null, seed.clock ?? null])
export const sameSeed = (a: FileSeed, b: FileSeed) => canonical(a) === canonical(b)

/** As the flags say it: `--seed 1 --subscribers 50 …`. */
export function describeSeed(seed: FileSeed): string {
  const flags = [`--seed ${seed.seed}`, ...(seed.demo ? ['--demo'] : []), `--subscribers ${seed.subscribers}`, `--connections ${seed.channelConnections}`]
  if (seed.messages !== undefined) flags.push(`--messages ${seed.messages}`)
  if (seed.fixtures) flags.push(`--fixtures ${seed.fixtures.dir} --fixtures-mode ${seed.fixtures.mode}`)
  if (seed.clock !== undefined) flags.push(`--clock ${seed.clock}`)
  return flags.join(' ')
}

