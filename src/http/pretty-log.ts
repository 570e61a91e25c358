import type { LogDestination } from './logger.ts'

/**
 * Human-readable lines for a terminal: pino-pretty, loaded only when asked for (the CLI asks when
 * stderr is a TTY), so a server whose log is read by a machine never loads it. Written to stderr
 * synchronously: a terminal is read by a person, and the order of lines matters more than speed.
 * Tests pass a stream of their own.
 */
export async function prettyDestination(output: number | NodeJS.WritableStream = 2): Promise<LogDestination> {
  const { build } = await import('pino-pretty')
  return build({ destination: output, sync: true, singleLine: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname,name' })
}
