/** Characters of JSON text in one chunk, about: each is one JSON.stringify per element, then one write. */
const CHUNK_CHARS = 64 * 1024

/**
 * `JSON.stringify(value)` as chunks of about `chunkChars` characters, each made when asked for
 * (docs/behaviour.md §6): a whole state is tens of MB, which JSON.stringify would write in one
 * piece, as long as every other call waits. The text is cut only between the elements of the
 * arrays that are members of a plain top object, each element serialized by JSON.stringify as it
 * is in place, so the chunks joined are its bytes. Anything else (a top that is not a plain
 * object, or has `toJSON`) is one chunk.
 */
export function* jsonOutSteps(value: unknown, chunkChars = CHUNK_CHARS): Generator<string, void, void> {
  if (!isPlainObject(value) || hasToJson(value)) return yield JSON.stringify(value)
  let chunk = '{'
  let first = true
  for (const key of Object.keys(value)) {
    const member = value[key]
    if (!Array.isArray(member) || hasToJson(member)) {
      const text = JSON.stringify(member)
      // Left out as JSON.stringify leaves it out: undefined, a function, a symbol.
      if (text === undefined) continue
      chunk += `${first ? '' : ','}${JSON.stringify(key)}:${text}`
      first = false
      continue
    }
    chunk += `${first ? '' : ','}${JSON.stringify(key)}:[`
    first = false
    for (let i = 0; i < member.length; i++) {
      // In an array, what JSON.stringify leaves out elsewhere is `null`.
      chunk += `${i === 0 ? '' : ','}${JSON.stringify(member[i]) ?? 'null'}`
      if (chunk.length >= chunkChars) {
        yield chunk
        chunk = ''
      }
    }
    chunk += ']'
  }
  yield `${chunk}}`
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false
  const prototype = Object.getPrototypeOf(value) as unknown
  return prototype === Object.prototype || prototype === null
}

const hasToJson = (value: object): boolean => typeof (value as { toJSON?: unknown }).toJSON === 'function'
