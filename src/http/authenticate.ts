import { ApiError } from './api-error.ts'

const unauthorized = (code: string, message: string) => new ApiError(401, code, message)

/**
 * The API key of an `Authorization: ApiKey <key>` header, with the live service's messages for
 * each way it can be wrong. `accepted` set: strict mode, only those keys.
 */
export function apiKeyFrom(header: string | undefined, accepted: ReadonlySet<string> | undefined): string {
  if (header === undefined || header.trim() === '') {
    throw unauthorized('MISSING_AUTHORIZATION', 'Missing authorization header')
  }
  const [scheme = '', ...rest] = header.trim().split(/\s+/)
  if (scheme !== 'ApiKey') throw unauthorized('INVALID_SCHEME', `Invalid authentication scheme: "${scheme}"`)
  const key = rest.join(' ')
  if (key === '') throw unauthorized('UNAUTHORIZED', 'Unauthorized')
  if (accepted && !accepted.has(key)) throw unauthorized('API_KEY_NOT_FOUND', 'API Key not found')
  return key
}
