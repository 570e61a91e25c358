import { BACKSLASH, CLOSE_ARRAY, CLOSE_OBJECT, MAX_JSON_DEPTH, OPEN_ARRAY, OPEN_OBJECT, QUOTE } from './json-depth.ts'
import type { Steps } from '../slices.ts'

/**
 * What reading JSON text in steps found: its value; a nesting deeper than the limit; or text this
 * reader does not split (not an object, a byte-order mark, or malformed), which JSON.parse must
 * read whole for its own verdict and message.
 */
export type JsonInSteps = { kind: 'value'; value: unknown } | { kind: 'too-deep' } | { kind: 'unsplit' }

export interface JsonStepSizes {
  /** Bytes scanned between two steps. */
  scanBytes: number
  /** Bytes of array elements parsed in one piece, about: one JSON.parse per step. */
  batchBytes: number
}

const SIZES: JsonStepSizes = { scanBytes: 16 * 1024, batchBytes: 32 * 1024 }

const COMMA = 0x2c
const WHITESPACE: ReadonlySet<number> = new Set([0x20, 0x09, 0x0a, 0x0d])

/**
 * UTF-8 JSON whose top is an object read in steps (docs/behaviour.md §6): a whole state is tens of
 * MB, which JSON.parse would read in one piece, as long as every other call waits. The text is cut
 * only outside strings: each array that is a member of the top object into batches of its
 * elements, each parsed by JSON.parse; the rest (the top object with a marker for each such array)
 * parsed last. Nothing is cut where JSON.parse would not have read a value, so the value is the
 * one JSON.parse gives (duplicate keys and `__proto__` included), and a batch or rest it refuses
 * means the whole is refused: `unsplit`. The nesting is measured as `jsonNestsDeeperThan` does,
 * over every byte, and stops the reading as soon as it passes `limit`.
 */
export function* jsonInSteps(bytes: Uint8Array, limit = MAX_JSON_DEPTH, sizes: JsonStepSizes = SIZES): Steps<JsonInSteps> {
  // ignoreBOM: a piece starting with one keeps it, as the whole text would (where it is no whitespace).
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true })
  const text = (from: number, to: number) => decoder.decode(bytes.subarray(from, to))
  let split = opensWithObject(bytes)
  const rest: string[] = []
  const arrays: unknown[][] = []
  let restFrom = 0
  let elements: unknown[] | undefined
  let batchFrom = 0
  /** Parses the elements from `batchFrom` to `to`: false when JSON.parse refuses them, or finds none where one must be. */
  const batch = (to: number, last: boolean): boolean => {
    let parsed: unknown[]
    try {
      parsed = JSON.parse(`[${text(batchFrom, to)}]`) as unknown[]
    } catch {
      return false
    }
    // Only whitespace: right for `[]`, not between two commas or after the last.
    if (parsed.length === 0 && !(last && elements!.length === 0)) return false
    for (const element of parsed) elements!.push(element)
    batchFrom = to + 1
    return true
  }

  let depth = 0
  let inString = false
  let nextStep = sizes.scanBytes
  for (let i = 0; i < bytes.length; i++) {
    if (i >= nextStep) {
      yield
      nextStep = i + sizes.scanBytes
    }
    const byte = bytes[i]
    if (inString) {
      if (byte === BACKSLASH) i++
      else if (byte === QUOTE) inString = false
    } else if (byte === QUOTE) inString = true
    else if (byte === OPEN_ARRAY || byte === OPEN_OBJECT) {
      if (++depth > limit) return { kind: 'too-deep' }
      if (split && depth === 2 && byte === OPEN_ARRAY) {
        rest.push(text(restFrom, i), `[${arrays.length}]`)
        elements = []
        arrays.push(elements)
        batchFrom = i + 1
      }
    } else if (byte === CLOSE_ARRAY || byte === CLOSE_OBJECT) {
      if (split && depth === 2 && elements) {
        split = byte === CLOSE_ARRAY && batch(i, true)
        elements = undefined
        restFrom = i + 1
        if (split) yield
      }
      depth--
    } else if (byte === COMMA && split && depth === 2 && elements && i - batchFrom >= sizes.batchBytes) {
      split = batch(i, false)
      if (split) yield
    }
  }
  if (!split || elements) return { kind: 'unsplit' }
  rest.push(text(restFrom, bytes.length))
  return withArrays(rest.join(''), arrays)
}

/** The first byte but whitespace is `{`; a byte-order mark (which decoding drops) is left to JSON.parse. */
function opensWithObject(bytes: Uint8Array): boolean {
  for (const byte of bytes) if (!WHITESPACE.has(byte)) return byte === OPEN_OBJECT
  return false
}

/** The rest parsed, each marker `[n]` replaced by the n-th array's elements. */
function withArrays(rest: string, arrays: readonly unknown[][]): JsonInSteps {
  let value: unknown
  try {
    value = JSON.parse(rest)
  } catch {
    return { kind: 'unsplit' }
  }
  const top = value as Record<string, unknown>
  for (const key of Object.keys(top)) {
    const marker = top[key]
    // Defined, not assigned: a member named `__proto__` stays a member, as JSON.parse makes it.
    if (Array.isArray(marker)) Object.defineProperty(top, key, { value: arrays[marker[0] as number], writable: true, enumerable: true, configurable: true })
  }
  return { kind: 'value', value: top }
}
