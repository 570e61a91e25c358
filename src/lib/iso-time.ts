let lastMs = Number.NaN
let lastText = ''

/**
 * `new Date(ms).toISOString()`, made once per millisecond: under load many calls share one, and
 * the request log and the journal each stamp every call.
 */
export function isoTime(ms: number): string {
  if (ms !== lastMs) {
    lastText = new Date(ms).toISOString()
    lastMs = ms
  }
  return lastText
}

/** 0001-01-01T00:00:00.000Z and 9999-12-31T23:59:59.999Z: the instants whose ISO 8601 form has a four-digit year, as `date-time` wants. */
export const FIRST_PRINTABLE_MS = -62_135_596_800_000
export const LAST_PRINTABLE_MS = 253_402_300_799_999

/** Whether `ms` is an instant of a four-digit year (NaN is not). */
export const isPrintable = (ms: number): boolean => ms >= FIRST_PRINTABLE_MS && ms <= LAST_PRINTABLE_MS

/**
 * The stamp of an answer or a journal entry at `ms`, or at the real time when `ms` has no
 * four-digit-year form: a stamp never fails, nor breaks the document (docs/behaviour.md §8).
 */
export const isoStamp = (ms: number): string => isoTime(isPrintable(ms) ? ms : Date.now())
