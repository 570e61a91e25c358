/**
 * A call as the official SDK (@novu/api, through node's fetch) writes it: header names in lower
 * case and in its order, with what fetch adds (an empty cookie, sec-fetch-mode, accept-language,
 * accept-encoding) and a content-length even without a body. test/sdk/bench-request.test.ts
 * holds these bytes to what the installed SDK sends.
 */
export const SDK_USER_AGENT = 'speakeasy-sdk/typescript 3.19.1 2.933.0 3.19.0 @novu/api'

/** `header`: what goes where the SDK puts the idempotency key (the key itself, or another header, or none). */
export function sdkRequest(method: string, path: string, body: string | undefined, header?: readonly [name: string, value: string]): Buffer {
  const lines = [`${method} ${path} HTTP/1.1`, 'host: 127.0.0.1', 'connection: keep-alive', 'accept: application/json', 'authorization: ApiKey bench']
  if (body !== undefined) lines.push('content-type: application/json')
  lines.push('cookie: ', `user-agent: ${SDK_USER_AGENT}`)
  if (header) lines.push(`${header[0]}: ${header[1]}`)
  lines.push('accept-language: *', 'sec-fetch-mode: cors', 'accept-encoding: gzip, deflate', `content-length: ${Buffer.byteLength(body ?? '')}`)
  return Buffer.from(`${lines.join('\r\n')}\r\n\r\n${body ?? ''}`)
}

/** Call n's key, shaped as the SDK's hook makes one (the time in milliseconds, then base-36 characters), and unique per n. */
export function sdkKey(n: number): string {
  return `${Date.now()}${n.toString(36).padStart(9, '0')}`
}
