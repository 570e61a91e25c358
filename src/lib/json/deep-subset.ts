/**
 * Whether `value` contains `pattern`: objects key by key (extra keys allowed), arrays element by
 * element with the same length, anything else equal.
 */
export function isDeepSubset(pattern: unknown, value: unknown): boolean {
  if (Array.isArray(pattern)) {
    return Array.isArray(value) && value.length === pattern.length && pattern.every((p, i) => isDeepSubset(p, value[i]))
  }
  if (pattern !== null && typeof pattern === 'object') {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return false
    return Object.entries(pattern).every(
      ([key, p]) => Object.hasOwn(value, key) && isDeepSubset(p, (value as Record<string, unknown>)[key]),
    )
  }
  return Object.is(pattern, value)
}
