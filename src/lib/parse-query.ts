/**
 * Parses a query string once, into a prototype-free record: a repeated name becomes an array, and
 * `name[]` counts as `name`. Express 5's `req.query` is rebuilt on every read and ignores `a[]`.
 */
export function parseQuery(url: string): Record<string, string | string[]> {
  const query: Record<string, string | string[]> = Object.create(null)
  const start = url.indexOf('?')
  if (start === -1) return query
  for (const [rawName, value] of new URLSearchParams(url.slice(start + 1))) {
    const name = rawName.endsWith('[]') ? rawName.slice(0, -2) : rawName
    const previous = query[name]
    if (previous === undefined) query[name] = value
    else if (Array.isArray(previous)) previous.push(value)
    else query[name] = [previous, value]
  }
  return query
}
