import { STATUS_CODES } from 'node:http'
import { isoStamp } from '../lib/iso-time.ts'
import { ApiError, STRING_BODY_STATUSES } from './api-error.ts'

/** Turns an ApiError into the documented body: ErrorDto, ValidationErrorDto, or a JSON string. */
export function errorBody(error: ApiError, path: string, now: Date): unknown {
  if (STRING_BODY_STATUSES.has(error.status)) return error.message
  const body: Record<string, unknown> = {
    statusCode: error.status,
    timestamp: isoStamp(now.getTime()),
    path,
    message: error.message,
    error: STATUS_CODES[error.status] ?? 'Error',
  }
  if (error.details.record) for (const [name, value] of Object.entries(error.details.record)) if (!(name in body)) body[name] = value
  if (error.details.errors) body.errors = error.details.errors
  if (error.details.ctx) body.ctx = error.details.ctx
  return body
}
