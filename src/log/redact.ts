/**
 * Names whose values are secrets, compared lower-cased: headers (`x-api-key`, `x-auth-token`, …),
 * query parameters (`token`, `access_token`, `secret`, …) and log fields (docs/behaviour.md §6).
 */
const SECRET_NAMES: ReadonlySet<string> = new Set([
  ...['authorization', 'proxy-authorization', 'cookie', 'idempotency-key', 'x-admin-token'],
  ...['x-api-key', 'api-key', 'apikey', 'x-auth-token', 'x-access-token'],
  ...['api_key', 'accesstoken', 'token', 'access_token', 'secret'],
])

/** Whether a header, query parameter or field of this name holds a secret. */
export const isSecretName = (name: string): boolean => SECRET_NAMES.has(name.toLowerCase())

/**
 * `fields` with every value under a secret-looking name replaced, at any depth. Copies only what
 * holds a secret: a log line without one (every request line) is passed through as it is.
 */
export function redact<T>(fields: T, depth = 0): T {
  if (depth > 8 || fields === null || typeof fields !== 'object') return fields
  if (Array.isArray(fields)) {
    let copy: unknown[] | undefined
    fields.forEach((value: unknown, i) => {
      const kept = redact(value, depth + 1)
      if (kept !== value) (copy ??= [...fields])[i] = kept
    })
    return (copy ?? fields) as T
  }
  let copy: Record<string, unknown> | undefined
  for (const name in fields) {
    if (!Object.hasOwn(fields, name)) continue
    const value: unknown = (fields as Record<string, unknown>)[name]
    const kept = SECRET_NAMES.has(name.toLowerCase()) ? '[redacted]' : redact(value, depth + 1)
    if (kept !== value) Object.defineProperty((copy ??= { ...(fields as Record<string, unknown>) }), name, { value: kept, enumerable: true, writable: true, configurable: true })
  }
  return (copy ?? fields) as T
}
