import { pino } from 'pino'
import { isoTime } from '../lib/iso-time.ts'
import { redact } from './redact.ts'
import { turnBatched } from './turn-batched.ts'

export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent'
type LineLevel = Exclude<LogLevel, 'silent'>
const RANK: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 }

export interface Logger {
  /** Whether a line of this level would be written; lets callers skip the work of building it. */
  enabled(level: LineLevel): boolean
  debug(message: string, fields?: Record<string, unknown>): void
  info(message: string, fields?: Record<string, unknown>): void
  warn(message: string, fields?: Record<string, unknown>): void
  error(message: string, fields?: Record<string, unknown>): void
}

/** Where the lines go: pino writes each one, newline included, as a string. */
export interface LogDestination {
  write(line: string): unknown
}

/**
 * pino behind the Logger port: JSON lines (pino's fields: numeric `level`, `time`, `msg`, plus
 * `name`), every field passed through `redact` so no secret reaches the log. Lines go to
 * `destination`, or to stderr without blocking the event loop.
 */
export function createLogger(level: LogLevel = 'info', destination?: LogDestination): Logger {
  // Decided once: the request log asks this on every request.
  const on = { debug: RANK.debug >= RANK[level], info: RANK.info >= RANK[level], warn: RANK.warn >= RANK[level], error: RANK.error >= RANK[level] }
  const enabled = (lineLevel: LineLevel) => on[lineLevel]
  if (level === 'silent') return { enabled, debug: ignore, info: ignore, warn: ignore, error: ignore }
  const log = pino(
    {
      level,
      base: { name: 'novu-mock' },
      timestamp: () => `,"time":"${isoTime(Date.now())}"`,
      // The one place every line's fields pass: a field under a secret-looking name never leaves.
      formatters: { log: (fields) => redact(fields) },
    },
    // pino's declared stream returns void; ours may return the write's boolean, which it ignores.
    (destination as pino.DestinationStream | undefined) ?? stderr(),
  )
  const at = (lineLevel: LineLevel) => (message: string, fields?: Record<string, unknown>) => {
    if (on[lineLevel]) log[lineLevel](fields ?? {}, message)
  }
  return { enabled, debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') }
}

const ignore = () => {}

let stderrStream: pino.DestinationStream | undefined

/** One asynchronous stderr stream per process (pino flushes it on exit), made on first use, written once per turn of the event loop. */
function stderr(): pino.DestinationStream {
  // pino's declared stream returns void; the batch's write returns nothing either.
  stderrStream ??= turnBatched(pino.destination({ fd: 2, sync: false })) as pino.DestinationStream
  return stderrStream
}
