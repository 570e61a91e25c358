import { ApiError } from '../answer/api-error.ts'

const unauthorized = (code: string, message: string, hint?: string) => new ApiError(401, code, message, hint === undefined ? {} : { hint })

/**
 * The API key of an `Authorization: ApiKey <key>` header, with the live service's messages for
 * each way it can be wrong. `accepted` set: strict mode, only those keys.
 */
export function apiKeyFrom(header: string | undefined, accepted: ReadonlySet<string> | undefined): string {
  const trimmed = header?.trim() ?? ''
  if (trimmed === '') throw unauthorized('MISSING_AUTHORIZATION', 'Missing authorization header')
  const key = keyOf(trimmed)
  if (accepted && !accepted.has(key)) throw unauthorized('API_KEY_NOT_FOUND', 'API Key not found')
  return key
}

/** The key of a header `apiKeyFrom` would accept, or none: for a call refused before it authenticates, to journal it under. */
export function apiKeyOrNone(header: string | undefined, accepted: ReadonlySet<string> | undefined): string | undefined {
  try {
    return apiKeyFrom(header, accepted)
  } catch {
    return undefined
  }
}

/** The usual header, `ApiKey <key>` with one space and no other, is read without splitting it. */
function keyOf(header: string): string {
  const usual = header.startsWith('ApiKey ') ? header.slice(7) : undefined
  if (usual !== undefined && usual !== '' && !/\s/.test(usual)) return usual
  const [scheme = '', ...rest] = header.split(/\s+/)
  if (scheme !== 'ApiKey') throw unauthorized('INVALID_SCHEME', `Invalid authentication scheme: "${scheme}"`)
  const key = rest.join(' ')
  // The live service's bare message stays (clients match on it); what to fix goes to the log.
  if (key === '') throw unauthorized('UNAUTHORIZED', 'Unauthorized', 'no key after "ApiKey": send Authorization: ApiKey <key>')
  return key
}
