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
  /** A request's line (log/request-log.ts), at level info. */
  request(fields: RequestFields): void
}

/** What a request's line says, in the order it says it; a field left undefined is left out. */
export interface RequestFields {
  method: string | undefined
  path: string
  operationId: string | undefined
  status: number
  ms: number
  tenant: string | undefined
  note: string | undefined
}

/** Where the lines go: pino writes each one, newline included, as a string. */
export interface LogDestination {
  write(line: string): unknown
}

/** Every line's `name`, pino's `base`. */
const NAME = 'novu-mock'

/** Every line's `time`, as pino's `timestamp` writes it. */
const timeField = (): string => `,"time":"${isoTime(Date.now())}"`

/**
 * pino behind the Logger port: JSON lines (pino's fields: numeric `level`, `time`, `msg`, plus
 * `name`), every field passed through `redact` so no secret reaches the log. Lines go to
 * `destination`, or to stderr without blocking the event loop.
 */
export function createLogger(level: LogLevel = 'info', destination?: LogDestination): Logger {
  // Decided once: the request log asks this on every request.
  const on = { debug: RANK.debug >= RANK[level], info: RANK.info >= RANK[level], warn: RANK.warn >= RANK[level], error: RANK.error >= RANK[level] }
  const enabled = (lineLevel: LineLevel) => on[lineLevel]
  if (level === 'silent') return { enabled, debug: ignore, info: ignore, warn: ignore, error: ignore, request: ignore }
  const stream = destination ?? stderr()
  const log = pino(
    {
      level,
      base: { name: NAME },
      timestamp: timeField,
      // The one place every line's fields pass: a field under a secret-looking name never leaves.
      formatters: { log: (fields) => redact(fields) },
    },
    // pino's declared stream returns void; ours may return the write's boolean, which it ignores.
    stream as pino.DestinationStream,
  )
  const at = (lineLevel: LineLevel) => (message: string, fields?: Record<string, unknown>) => {
    if (on[lineLevel]) log[lineLevel](fields ?? {}, message)
  }
  const request = on.info ? (fields: RequestFields) => void stream.write(requestLine(fields)) : ignore
  return { enabled, debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error'), request }
}

/**
 * The line pino writes for `info('request', fields)`, written directly: every call writes one, and
 * pino's way to it (the fields' object, the formatter, the generic serializer) cost a call several
 * µs (docs/decisions.md, 2026-11-28). Its fields name no secret, so it has none to redact.
 */
function requestLine({ method, path, operationId, status, ms, tenant, note }: RequestFields): string {
  let line = `{"level":${pino.levels.values.info}${timeField()},"name":"${NAME}"`
  if (method !== undefined) line += `,"method":${JSON.stringify(method)}`
  line += `,"path":${JSON.stringify(path)}`
  if (operationId !== undefined) line += `,"operationId":${JSON.stringify(operationId)}`
  line += `,"status":${status},"ms":${ms}`
  if (tenant !== undefined) line += `,"tenant":"${tenant}"`
  if (note !== undefined) line += `,"note":${JSON.stringify(note)}`
  return `${line},"msg":"request"}\n`
}

const ignore = () => {}

let stderrStream: pino.DestinationStream | undefined

/** One asynchronous stderr stream per process (pino flushes it on exit), made on first use, written once per turn of the event loop. */
function stderr(): pino.DestinationStream {
  // pino's declared stream returns void; the batch's write returns nothing either.
  stderrStream ??= turnBatched(pino.destination({ fd: 2, sync: false })) as pino.DestinationStream
  return stderrStream
}
