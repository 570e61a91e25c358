/** A string's header in V8's heap (map, hash, length), rounded up. */
export const STRING_HEADER_BYTES = 16

/** Any character past Latin-1: V8 then keeps the string at two bytes a character. */
const TWO_BYTE = /[^\0-\xff]/

/**
 * `text` as a string of its own. A `slice` of a string, or a string built by `+`, is a view that
 * keeps the whole of what it was cut from (V8's sliced and cons strings): 16 KiB cut from a 1 MB
 * body kept the megabyte. A structured clone is a new flat string by definition (serialized, then
 * read back), of the same characters, lone surrogates included.
 */
export const ownCopy = (text: string): string => structuredClone(text)

/** What `text` takes in V8's heap once flat: one byte a character for Latin-1 text, else two. */
export const stringBytes = (text: string): number => STRING_HEADER_BYTES + text.length * (TWO_BYTE.test(text) ? 2 : 1)
