/** Arrays and objects inside one another, at most: no request of the five operations comes near it (docs/behaviour.md §1.2). */
export const MAX_JSON_DEPTH = 64

/** The bytes of JSON's structure that a scan over its text looks for. */
export const QUOTE = 0x22
export const BACKSLASH = 0x5c
export const OPEN_ARRAY = 0x5b
export const OPEN_OBJECT = 0x7b
export const CLOSE_ARRAY = 0x5d
export const CLOSE_OBJECT = 0x7d

/**
 * Whether JSON text nests arrays and objects deeper than `limit`, read in one pass over its bytes
 * (brackets inside strings do not count), before anything parses it: a body thousands deep would
 * cost every later step (serializing, cloning, walking) a call-stack overflow.
 */
export function jsonNestsDeeperThan(bytes: Uint8Array, limit = MAX_JSON_DEPTH): boolean {
  let depth = 0
  let inString = false
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i]
    if (inString) {
      if (byte === BACKSLASH) i++
      else if (byte === QUOTE) inString = false
    } else if (byte === QUOTE) inString = true
    else if (byte === OPEN_ARRAY || byte === OPEN_OBJECT) {
      if (++depth > limit) return true
    } else if (byte === CLOSE_ARRAY || byte === CLOSE_OBJECT) depth--
  }
  return false
}

/** The same for a value already parsed (by an app in front of the mock, or a library caller), walked without recursion. */
export function valueNestsDeeperThan(value: unknown, limit = MAX_JSON_DEPTH): boolean {
  const pending: [unknown, number][] = [[value, 0]]
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const [item, depth] = next
    if (item === null || typeof item !== 'object') continue
    if (depth + 1 > limit) return true
    for (const child of Object.values(item)) if (child !== null && typeof child === 'object') pending.push([child, depth + 1])
  }
  return false
}
