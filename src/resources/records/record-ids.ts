import { createHash } from 'node:crypto'

/**
 * Ids of records a call creates: derived from the tenant, the kind, the call's time and how many
 * the tenant holds, so the same calls in the same order on the same clock make the same ids
 * (docs/behaviour.md §8), and retried with a counter until free.
 */
export function newRecordId(parts: readonly unknown[], taken: (id: string) => boolean): string {
  for (let attempt = 0; ; attempt++) {
    const id = digest([...parts, attempt]).toString('hex').slice(0, 24)
    if (!taken(id)) return id
  }
}

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_-'

/** `min` to `max` characters of [0-9A-Za-z_-] made from `parts` (the live service draws them at random). */
export function suffixOf(parts: readonly unknown[], min: number, max = min): string {
  const bytes = digest(parts)
  const length = min + (bytes[bytes.length - 1]! % (max - min + 1))
  let text = ''
  for (let i = 0; i < length; i++) text += ALPHABET[bytes[i]! % ALPHABET.length]
  return text
}

const digest = (parts: readonly unknown[]) => createHash('sha256').update(JSON.stringify(parts)).digest()
