import { ApiError } from '../answer/api-error.ts'
import type { CallRequest } from './call-request.ts'
import { readJsonFirst } from './body/body-reading.ts'
import { checkedErrorAnswer, type ErrorLine } from './answers/error-answer.ts'
import type { OperationEntry } from './operation-table.ts'
import type { ResponseCheck } from './answers/response-check.ts'
import { RouteTable } from './route-table.ts'
import { appendHeaders, type HeaderList, type SentAnswer } from './answers/sent-answer.ts'
import type { ValidateFunction } from 'ajv/dist/2020.js'

/** What a request's method and path come to: an operation with its parameters, or the refusal of a path that is one but cannot be read. */
export type Routed = { entry: OperationEntry; params: Record<string, string>; refusal?: undefined } | { entry?: undefined; refusal: ApiError }

/** The service's 404 of a path or method no route answers (docs/behaviour.md §1.2); `hint` follows the live service's words. */
export const routeNotFound = (method: string, url: string, hint = '') => new ApiError(404, 'ROUTE_NOT_FOUND', `Cannot ${method} ${url}${hint}`)

/**
 * Routing of the API's operations, the same for both doors (node's, msw's): a HEAD is its GET (the
 * door sends no body), the canonical spelling of a path is tried first (the hot path), then any
 * spelling express's router takes (any case, one trailing slash). What no operation answers is
 * the door's: the mock's other routes, else `routeNotFound`, after its JSON body, if any, was read
 * (docs/behaviour.md §1.3), through `refused`.
 */
export class Dispatcher {
  private readonly table = new RouteTable<OperationEntry>()
  private readonly errorDto: () => ValidateFunction

  constructor(
    entries: readonly OperationEntry[],
    errorDto: ValidateFunction,
    private readonly check: ResponseCheck,
  ) {
    this.errorDto = () => errorDto
    for (const entry of entries) this.table.add(entry.operation.method, entry.operation.pathTemplate, entry)
  }

  /** The operation `method` and `path` (below the mock's base, without its query) name, if any. */
  route(method: string, path: string): Routed | undefined {
    const routed = method === 'HEAD' ? 'GET' : method
    const match = this.table.match(routed, path) ?? this.table.match(routed, path, { lenient: true })
    if (match === undefined) return undefined
    // express's router's words for a parameter it cannot decode.
    if (match.malformed !== undefined) return { refusal: new ApiError(400, 'BAD_REQUEST', `Failed to decode param '${match.malformed}'`) }
    return { entry: match.value, params: match.params }
  }

  /** The ErrorDto answer to `error` for a request no operation answers, once its JSON body, if any, was read: a refusal of that body wins. */
  async refused(request: CallRequest, error: ApiError, line: ErrorLine = request): Promise<SentAnswer> {
    let refusal: unknown = error
    try {
      await readJsonFirst(request)
    } catch (bodyRefusal) {
      refusal = bodyRefusal
    }
    return this.errorSent(refusal, line)
  }

  /** The ErrorDto answer to anything thrown before an operation was found, as the door sends it. */
  errorSent(error: unknown, line: ErrorLine): SentAnswer {
    const answer = checkedErrorAnswer(error, line, this.errorDto, this.check)
    const head: HeaderList = []
    appendHeaders(head, answer.headers)
    return { status: answer.status, head, text: JSON.stringify(answer.body) }
  }
}
