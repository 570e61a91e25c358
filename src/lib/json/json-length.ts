/**
 * Characters a JSON text would need to escape in a string: a quote, a backslash, a control
 * character, or half of a surrogate pair (alone, JSON.stringify writes it as \udXXX).
 */
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/

/** `JSON.stringify(text).length`, without making the text. */
function stringLength(text: string): number {
  if (!NEEDS_ESCAPE.test(text)) return text.length + 2
  let length = 2
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    if (code === 0x22 || code === 0x5c || code === 0x08 || code === 0x09 || code === 0x0a || code === 0x0c || code === 0x0d) length += 2
    else if (code < 0x20) length += 6
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) (length += 2), i++
    else if (code >= 0xd800 && code <= 0xdfff) length += 6
    else length += 1
  }
  return length
}

/**
 * `JSON.stringify(value).length` for plain JSON data (objects, arrays, strings, finite numbers,
 * booleans, null; undefined left out of an object and null in an array, as JSON.stringify does),
 * without making the text: measuring a record cost a serialization of it, and the garbage of one,
 * on every write. Anything else (a `toJSON`, a bigint, a function) is measured by JSON.stringify.
 * `undefined` when JSON.stringify would answer undefined.
 */
export function jsonLength(value: unknown): number | undefined {
  switch (typeof value) {
    case 'string':
      return stringLength(value)
    case 'number':
      return Number.isFinite(value) ? String(value).length : 4
    case 'boolean':
      return value ? 4 : 5
    case 'undefined':
      return undefined
    case 'object':
      if (value === null) return 4
      if (Array.isArray(value)) return arrayLength(value)
      if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return JSON.stringify(value)?.length
      return objectLength(value as Record<string, unknown>)
    default:
      return JSON.stringify(value)?.length
  }
}

function arrayLength(values: readonly unknown[]): number {
  let length = 2 + Math.max(0, values.length - 1)
  for (let i = 0; i < values.length; i++) length += jsonLength(values[i]) ?? 4
  return length
}

function objectLength(record: Record<string, unknown>): number {
  let length = 2
  let members = 0
  for (const name in record) {
    if (!Object.hasOwn(record, name)) continue
    const valueLength = jsonLength(record[name])
    if (valueLength === undefined) continue
    length += stringLength(name) + 1 + valueLength
    members++
  }
  return length + Math.max(0, members - 1)
}
