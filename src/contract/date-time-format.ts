import { createRequire } from 'node:module'
import { Lru } from '../lib/lru.ts'

const require = createRequire(import.meta.url)
const REMEMBERED = 10_000
/** A timestamp is some 30 characters: anything much longer is checked every time, never kept. */
const LONGEST_REMEMBERED = 64

let memoized = false

/**
 * ajv-formats checks a `date-time` with a split and two regular expressions (the calendar and
 * leap seconds included): a fifth of the cost of checking a page of connections, whose answers
 * repeat the same timestamps call after call. Its verdict on a string never changes, so it is
 * remembered (up to REMEMBERED strings of timestamp length, the least recently used forgotten first), just as
 * strict; a client's 30 MB `createdAt` is checked, not kept. Every validator
 * reads `fullFormats["date-time"].validate` when it runs, the precompiled ones included, so
 * replacing it there serves them all.
 */
export function rememberDateTimeVerdicts(): void {
  if (memoized) return
  memoized = true
  // The module the precompiled validators require (the same file, so the same object).
  const { fullFormats } = require('ajv-formats/dist/formats.js') as typeof import('ajv-formats/dist/formats.js')
  // ajv-formats defines date-time as { validate, compare }; its declared type is every kind of format.
  const format = fullFormats['date-time'] as { validate: (text: string) => boolean }
  const check = format.validate
  const verdicts = new Lru<boolean>(REMEMBERED, { longestKey: LONGEST_REMEMBERED })
  format.validate = (text: string) => verdicts.remember(text, check)
}
