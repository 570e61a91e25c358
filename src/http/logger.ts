import { redact } from './redact.ts'

export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent'
const RANK: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 }

export interface Logger {
  /** Whether a line of this level would be written; lets callers skip the work of building it. */
  enabled(level: Exclude<LogLevel, 'silent'>): boolean
  debug(message: string, fields?: Record<string, unknown>): void
  info(message: string, fields?: Record<string, unknown>): void
  warn(message: string, fields?: Record<string, unknown>): void
  error(message: string, fields?: Record<string, unknown>): void
}

/** JSON lines, one prefix, every field passed through `redact` so no secret reaches the log. */
export function createLogger(level: LogLevel = 'info', write: (line: string) => void = (l) => process.stderr.write(l)): Logger {
  const enabled = (lineLevel: Exclude<LogLevel, 'silent'>) => RANK[lineLevel] >= RANK[level]
  const at = (lineLevel: Exclude<LogLevel, 'silent'>) => (message: string, fields?: Record<string, unknown>) => {
    if (!enabled(lineLevel)) return
    write(`${JSON.stringify({ level: lineLevel, time: new Date().toISOString(), name: 'novu-mock', message, ...redact(fields ?? {}) })}\n`)
  }
  return { enabled, debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') }
}
