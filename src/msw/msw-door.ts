import { ApiError } from '../answer/api-error.ts'
import type { MockState } from '../app/create-state.ts'
import { schemaOf } from '../contract/load-contract.ts'
import { checkedAnswer } from '../core/check-answer.ts'
import { errorAnswer } from '../core/error-answer.ts'
import { apiEntries, routeTableOf } from '../core/operation-table.ts'
import type { OperationPipeline } from '../core/operation-pipeline.ts'
import { API_BODY_LIMIT } from '../core/read-body.ts'
import { JSON_CONTENT_TYPE, type CallOutcome, type HeaderList } from '../core/sent-answer.ts'
import { callRequestOf } from './fetch-request.ts'

/** The control plane's prefix: in process, `tenant(apiKey)` is its door (docs/decisions.md, 2026-11-26). */
const ADMIN_PREFIX = '/__admin'

/**
 * Answers a WHATWG `Request` under `basePath` as the node server answers it: the five operations
 * through the core, anything else the service's 404. `'drop'`: a fault closed the connection.
 */
export function mswDoor(state: MockState, basePath: string): (request: Request) => Promise<Response | 'drop'> {
  const { api } = state.contracts
  const table = routeTableOf(apiEntries(state.contracts, state.api, state.core, state.api.plane), (entry) => entry.answer)
  const errorDto = schemaOf(api, 'ErrorDto')

  function notFound(method: string, url: string): CallOutcome {
    const inProcess = url.startsWith(ADMIN_PREFIX) ? ': in process, the control plane is tenant(apiKey) of novu-mock/msw' : ''
    const answer = checkedAnswer(errorAnswer(new ApiError(404, 'ROUTE_NOT_FOUND', `Cannot ${method} ${url}${inProcess}`), { method, url }, state.core), errorDto, url, state.core)
    return { status: answer.status, head: [], text: JSON.stringify(answer.body) }
  }

  return async (request) => {
    const { pathname, search } = new URL(request.url)
    const path = pathname.slice(basePath.length) || '/'
    // As node's server does, a HEAD is answered as its GET, without the body.
    const method = request.method === 'HEAD' ? 'GET' : request.method
    const match = table.match(method, path) ?? table.match(method, path, { lenient: true })
    const outcome = match ? await answered(match.value, request, path + search, match.params) : notFound(request.method, path + search)
    if (outcome === 'drop') return 'drop'
    // A 204 has no body, not even an empty one (Response refuses it).
    const body = request.method === 'HEAD' || outcome.status === 204 ? null : outcome.text
    return new Response(body, { status: outcome.status, headers: headersOf(outcome.head) })
  }
}

async function answered(answer: OperationPipeline, request: Request, url: string, params: Record<string, string>): Promise<CallOutcome> {
  return answer(await callRequestOf(request, url, API_BODY_LIMIT), params)
}

function headersOf(head: HeaderList): Headers {
  const headers = new Headers()
  for (let i = 0; i < head.length; i += 2) headers.append(String(head[i]), String(head[i + 1]))
  headers.set('Content-Type', JSON_CONTENT_TYPE)
  return headers
}
