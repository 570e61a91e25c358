import { hash } from 'node:crypto'
import { ApiError, NO_VALUE } from '../../answer/api-error.ts'

/** The rules every adapter of the idempotency records follows (docs/behaviour.md §4). */

export const MAX_KEY_LENGTH = 255
export const RETENTION_MS = 24 * 60 * 60 * 1000
/** The live service sends it with its 409 and its 422 (docs/behaviour.md §4). */
export const IDEMPOTENCY_LINK = { Link: 'https://docs.novu.co/additional-resources/idempotency' }
/** Answers of the operation itself that a retry replays; anything else (409, 429, 5xx) is not kept. */
const STORED_ERROR_STATUSES: ReadonlySet<number> = new Set([400, 404, 422])

/** Whether an answer of this status is kept for replay. */
/** An answer's body as a record keeps it, and back: a bodiless answer (a 204) is kept as ''. */
export const answerText = (body: unknown): string => JSON.stringify(body) ?? ''
export const answerBody = (text: string): unknown => (text === '' ? undefined : JSON.parse(text))

export const isReplayed = (status: number): boolean => (status >= 200 && status < 300) || STORED_ERROR_STATUSES.has(status)

/** The 400 of a key too long. */
export function checkKeyLength(key: string): void {
  if (key.length <= MAX_KEY_LENGTH) return
  throw new ApiError(400, 'IDEMPOTENCY_KEY_TOO_LONG', `idempotencyKey "${key}" has exceeded the maximum allowed length of ${MAX_KEY_LENGTH} characters`)
}

/** The 422 of a key sent again with another method, path or body. */
export function keyReused(key: string): ApiError {
  const message = `Request with key "${key}" is being reused for a different body`
  return new ApiError(422, 'IDEMPOTENCY_KEY_REUSED', message, { errors: { general: { messages: [message], value: NO_VALUE } }, headers: IDEMPOTENCY_LINK })
}

/** The 409 of a key whose first call is still running. */
export function keyInProgress(key: string): ApiError {
  return new ApiError(409, 'IDEMPOTENCY_IN_PROGRESS', `Request with key "${key}" is currently being processed. Please retry after 1 second`, {
    headers: { 'Retry-After': '1', ...IDEMPOTENCY_LINK },
  })
}

/** Up to this length the body itself is its print: comparing it costs less than hashing it. */
const SHORT_BODY = 512

/** A body's fingerprint. latin1: one character per byte, so the text is the bytes, with nothing to decode. */
export function bodyPrint(body: Buffer | undefined): string {
  if (body === undefined) return ''
  return body.length <= SHORT_BODY ? body.toString('latin1') : hash('sha256', body, 'base64')
}
