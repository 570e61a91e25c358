import type { SeedSpec } from './store.ts'

// What a store (a file, or Redis) records of the seed its tenants' rows lie over: its SeedSpec, with the fixtures' digest and, in Redis, `--clock`.

/** The options as a start compares them: a missing `demo` or `messages` is its default. */
const canonical = (seed: SeedSpec) =>
  JSON.stringify([seed.seed, seed.demo ?? false, seed.subscribers, seed.channelConnections, seed.messages ?? null, seed.fixtures ?? null, seed.clock ?? null])
export const sameSeed = (a: SeedSpec, b: SeedSpec) => canonical(a) === canonical(b)

/** As the flags say it: `--seed 1 --subscribers 50 …`. */
export function describeSeed(seed: SeedSpec): string {
  const flags = [`--seed ${seed.seed}`, ...(seed.demo ? ['--demo'] : []), `--subscribers ${seed.subscribers}`, `--connections ${seed.channelConnections}`]
  if (seed.messages !== undefined) flags.push(`--messages ${seed.messages}`)
  if (seed.fixtures) flags.push(`--fixtures ${seed.fixtures.dir} --fixtures-mode ${seed.fixtures.mode}`)
  if (seed.clock !== undefined) flags.push(`--clock ${seed.clock}`)
  return flags.join(' ')
}

