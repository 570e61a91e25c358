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
    readonly details: { errors?: FieldErrors; ctx?: Record<string, unknown>; headers?: Record<string, string> } = {},
  ) {
    super(message)
    this.name = 'ApiError'
  }
}

export const badRequest = (code: string, message: string) => new ApiError(400, code, message)
export const notFound = (code: string, message: string) => new ApiError(404, code, message)

export function validationFailed(errors: FieldErrors, message = 'Validation Error'): ApiError {
  return new ApiError(422, 'VALIDATION_ERROR', message, { errors })
}

/** 429 and 503 bodies are a bare JSON string, as the live service sends them. */
export const STRING_BODY_STATUSES: ReadonlySet<number> = new Set([429, 503])
