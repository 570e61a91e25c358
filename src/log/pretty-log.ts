import { createRequire } from 'node:module'
import type { LogDestination } from './logger.ts'

/**
 * Human-readable lines for a terminal: pino-pretty, loaded only when asked for (the CLI asks when
 * stderr is a TTY), so a server whose log is read by a machine never loads it. Written to stderr
 * synchronously: a terminal is read by a person, and the order of lines matters more than speed.
 * Tests pass a stream of their own. Loaded by `require`, as node loads it (CommonJS), so that the
 * bundle (src/build-bundle.ts) leaves it out and `build` is found by name either way.
 */
export function prettyDestination(output: number | NodeJS.WritableStream = 2): LogDestination {
  const { build } = createRequire(import.meta.url)('pino-pretty') as typeof import('pino-pretty')
  return build({ destination: output, sync: true, singleLine: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname,name' })
}
