/** Field problems of a 422, keyed by parameter name or body path (`general` when none applies). */
export type FieldErrors = Record<string, { messages: string[]; value?: unknown }>

/**
 * The one error type the service's rules and the HTTP layer throw. `status` and `message` are
 * what the client sees; `code` is a stable name for logs and tests.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: {
      errors?: FieldErrors
      ctx?: Record<string, unknown>
      headers?: Record<string, string>
      /** The properties a 422 names, for its log line (its body may name them only in prose). */
      fields?: string[]
      /** What to fix, for the server's log when the body must keep the live service's exact words. */
      hint?: string
      /** Fields the operation's documented error body has beside the ErrorDto's (a 409 carrying the record it met). */
      record?: Record<string, unknown>
    } = {},
  ) {
    super(message)
    this.name = 'ApiError'
  }
}

export const notFound = (code: string, message: string) => new ApiError(404, code, message)

export function validationFailed(errors: FieldErrors, message = 'Validation Error'): ApiError {
  return new ApiError(422, 'VALIDATION_ERROR', message, { errors })
}

/** The `value` the live service's exception filter writes under `general` (docs/behaviour.md §1.2). */
export const NO_VALUE = 'No Value Recorded'

/** A 422 whose problems concern no one field, under `general`, as the live service writes them. */
export function generalProblem(messages: string[], message = 'Validation Error'): ApiError {
  return validationFailed({ general: { messages, value: NO_VALUE } }, message)
}

/** The live service's 503 message (its body is this string alone). */
export const RETRY_LATER = 'Please wait some time, then try again.'

/** The live service's 503: its string body, and when to come back. */
export const tryAgainLater = (code: string, retryAfterSeconds: number) =>
  new ApiError(503, code, RETRY_LATER, { headers: { 'Retry-After': String(retryAfterSeconds) } })

/** A 503 body is a bare JSON string, as the live service sends it (a 429 is an ErrorDto). */
export const STRING_BODY_STATUSES: ReadonlySet<number> = new Set([503])
