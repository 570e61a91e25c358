/**
 * Parses a query string once, into a prototype-free record: a repeated name becomes an array, and
 * `name[]` counts as `name`. Express 5's `req.query` is rebuilt on every read and ignores `a[]`.
 */
export function parseQuery(url: string): Record<string, string | string[]> {
  const query: Record<string, string | string[]> = Object.create(null)
  const start = url.indexOf('?')
  if (start === -1) return query
  const text = url.slice(start + 1)
  // Nothing to decode or mend: split as URLSearchParams would, without its object and iterator.
  if (!NEEDS_DECODING.test(text)) {
    for (const pair of text.split('&')) {
      if (pair === '') continue
      const at = pair.indexOf('=')
      add(query, at === -1 ? pair : pair.slice(0, at), at === -1 ? '' : pair.slice(at + 1))
    }
    return query
  }
  for (const [name, value] of new URLSearchParams(text)) add(query, name, value)
  return query
}

/** A `%` or `+` to decode, a lone surrogate to mend, or a leading `?` URLSearchParams drops. */
const NEEDS_DECODING = /[%+\uD800-\uDFFF]|^\?/

function add(query: Record<string, string | string[]>, rawName: string, value: string): void {
  const name = rawName.endsWith('[]') ? rawName.slice(0, -2) : rawName
  const previous = query[name]
  if (previous === undefined) query[name] = value
  else if (Array.isArray(previous)) previous.push(value)
  else query[name] = [previous, value]
}
