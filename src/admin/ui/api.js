// The page's only way to the server: same-origin calls to /__admin routes, never the Novu API
// (whose calls would enter the journal and the rate limit). The admin token and the tenant's key
// live in this module's memory only: never in a URL, a cookie or browser storage.
import { errorMessage } from './event-stream.js'

const secrets = { adminToken: undefined }

/** Where the server asks for one (a non-loopback host), every data call carries the admin token. */
export function useAdminToken(token) {
  secrets.adminToken = token
}

/** An answer with an error status; `body` as sent (a verify's 417 is shown as the answer). */
export class CallFailed extends Error {
  constructor(status, message, body) {
    super(message)
    this.status = status
    this.body = body
  }
}

/** The headers of a data call: the admin token if any, and the tenant's key if the call is about one. */
export function adminHeaders(key) {
  const headers = {}
  if (secrets.adminToken !== undefined) headers['x-admin-token'] = secrets.adminToken
  if (key !== undefined) headers.Authorization = `ApiKey ${key}`
  return headers
}

/** `GET`s by default; `body` is sent as JSON. Resolves to the parsed answer, or throws CallFailed. */
export async function adminCall(path, { key, method = 'GET', body, signal } = {}) {
  const headers = adminHeaders(key)
  if (body !== undefined) headers['Content-Type'] = 'application/json'
  const response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), signal, cache: 'no-store' })
  if (response.ok) return response.json()
  const answer = await response.json().catch(() => undefined)
  throw new CallFailed(response.status, errorMessage(response.status, answer), answer)
}
