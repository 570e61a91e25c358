type Segment = { literal: string } | { param: string }

interface Route<T> {
  segments: Segment[]
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
    const segments = template.split('/').map((part): Segment => (/^\{.+\}$/.test(part) ? { param: part.slice(1, -1) } : { literal: part }))
    const routes = this.byMethod.get(method) ?? []
    routes.push({ segments, value })
    this.byMethod.set(method, routes)
  }

  match(method: string, path: string): RouteMatch<T> | undefined {
    const routes = this.byMethod.get(method)
    if (!routes) return undefined
    const parts = path.split('/')
    for (const route of routes) {
      const params = paramsOf(route.segments, parts)
      if (params) return { value: route.value, params }
    }
    return undefined
  }
}

function paramsOf(segments: Segment[], parts: string[]): Record<string, string> | undefined {
  if (segments.length !== parts.length) return undefined
  const params: Record<string, string> = Object.create(null)
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i]!
    const part = parts[i]!
    if ('literal' in segment) {
      if (segment.literal !== part) return undefined
      continue
    }
    const value = decoded(part)
    if (value === undefined || value === '') return undefined
    params[segment.param] = value
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
