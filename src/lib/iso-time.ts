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
