const SECRET_NAMES = new Set(['authorization', 'idempotency-key', 'x-admin-token', 'apikey', 'api_key', 'accesstoken'])

/** A copy of `fields` with every value under a secret-looking name replaced, at any depth. */
export function redact<T>(fields: T, depth = 0): T {
  if (depth > 8 || fields === null || typeof fields !== 'object') return fields
  if (Array.isArray(fields)) return fields.map((v) => redact(v, depth + 1)) as T
  const copy: Record<string, unknown> = {}
  for (const [name, value] of Object.entries(fields)) {
    copy[name] = SECRET_NAMES.has(name.toLowerCase()) ? '[redacted]' : redact(value, depth + 1)
  }
  return copy as T
}
