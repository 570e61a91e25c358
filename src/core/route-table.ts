/** A template's segments: the literal text of each, or (where it is `{name}`) undefined, and the param's name. */
interface Route<T> {
  literals: (string | undefined)[]
  names: (string | undefined)[]
  value: T
}

export interface RouteMatch<T> {
  value: T
  params: Record<string, string>
  /** Set when the path is the route's but a parameter's escape is malformed: the segment, as sent. */
  malformed?: string
}

/**
 * Matches a method and path to the document's path templates: the hot path of every operation
 * call. Strict, only the canonical spelling matches (the template's case, no trailing slash);
 * lenient, any spelling express's router takes (core/dispatcher.ts tries both, in that order).
 * A path whose segments match but one of whose parameters cannot be decoded is the route's, with
 * the segment in `malformed`, as express's router answers it (400).
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
      if (typeof params === 'string') return { value: route.value, params: {}, malformed: params }
      if (params) return { value: route.value, params }
    }
    return undefined
  }
}

/**
 * The route's parameters, or the first segment that cannot be decoded (a string). The names are the
 * document's, never the client's, so a plain object is safe (and faster to fill and read than a prototype-free one).
 */
function paramsOf({ literals, names }: Route<unknown>, parts: string[], lenient: boolean): Record<string, string> | string | undefined {
  if (literals.length !== parts.length) return undefined
  const params: Record<string, string> = {}
  let malformed: string | undefined
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!
    const name = names[i]
    if (name === undefined) {
      if (literals[i] !== part && !(lenient && literals[i]!.toLowerCase() === part.toLowerCase())) return undefined
      continue
    }
    if (part === '') return undefined
    const value = decoded(part)
    if (value === undefined) malformed ??= part
    else params[name] = value
  }
  return malformed ?? params
}

function decoded(part: string): string | undefined {
  if (!part.includes('%')) return part
  try {
    return decodeURIComponent(part)
  } catch {
    return undefined
  }
}
