/** A template's segments: the literal text of each, or (where it is `{name}`) undefined, and the param's name. */
interface Route<T> {
  literals: (string | undefined)[]
  names: (string | undefined)[]
  value: T
}

export interface RouteMatch<T> {
  value: T
  params: Record<string, string>
}

/**
 * Matches a method and path to the document's path templates without express's router: the hot
 * path of every operation call. Only the canonical spelling matches (the template's case, no
 * trailing slash, well-formed escapes); `undefined` sends any other to express, which routes the
 * same operations and answers the rest, so the two cannot disagree on what a request means.
 */
export class RouteTable<T> {
  private readonly byMethod = new Map<string, Route<T>[]>()

  add(method: string, template: string, value: T): void {
    const parts = template.split('/')
    const isParam = (part: string) => /^\{.+\}$/.test(part)
    const literals = parts.map((part) => (isParam(part) ? undefined : part))
    const names = parts.map((part) => (isParam(part) ? part.slice(1, -1) : undefined))
    const routes = this.byMethod.get(method) ?? []
    routes.push({ literals, names, value })
    this.byMethod.set(method, routes)
  }

  /**
   * `lenient`: any case of the literal segments and one trailing slash, as express's router takes
   * them (for a door that has no express behind the table, novu-mock/msw).
   */
  match(method: string, path: string, { lenient = false } = {}): RouteMatch<T> | undefined {
    const routes = this.byMethod.get(method)
    if (!routes) return undefined
    const parts = (lenient && path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path).split('/')
    for (const route of routes) {
      const params = paramsOf(route, parts, lenient)
      if (params) return { value: route.value, params }
    }
    return undefined
  }
}

/** The names are the document's, never the client's, so a plain object is safe (and faster to fill and read than a prototype-free one). */
function paramsOf({ literals, names }: Route<unknown>, parts: string[], lenient: boolean): Record<string, string> | undefined {
  if (literals.length !== parts.length) return undefined
  const params: Record<string, string> = {}
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!
    const name = names[i]
    if (name === undefined) {
      if (literals[i] !== part && !(lenient && literals[i]!.toLowerCase() === part.toLowerCase())) return undefined
      continue
    }
    const value = decoded(part)
    if (value === undefined || value === '') return undefined
    params[name] = value
  }
  return params
}

function decoded(part: string): string | undefined {
  if (!part.includes('%')) return part
  try {
    return decodeURIComponent(part)
  } catch {
    return undefined
  }
}
