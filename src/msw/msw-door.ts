import { ApiError } from '../answer/api-error.ts'
import type { MockState } from '../app/create-state.ts'
import { schemaOf } from '../contract/load-contract.ts'
import { checkedAnswer } from '../core/check-answer.ts'
import { errorAnswer } from '../core/error-answer.ts'
import { operationEntries, routeTableOf } from '../core/operation-table.ts'
import { bodyLimitOf } from '../core/body-limit.ts'
import type { CallRequest } from '../core/call-request.ts'
import { readJsonFirst } from '../core/read-body.ts'
import { JSON_CONTENT_TYPE, type CallOutcome, type HeaderList } from '../core/sent-answer.ts'
import { callRequestOf } from './fetch-request.ts'

/** The control plane's prefix: in process, `tenant(apiKey)` is its door (docs/decisions.md, 2026-11-26). */
const ADMIN_PREFIX = '/__admin'

/**
 * Answers a WHATWG `Request` under `basePath` as the node server answers it: the five operations
 * through the core, anything else the service's 404, a JSON body read before either
 * (docs/behaviour.md §1.3). `'drop'`: a fault closed the connection.
 */
export function mswDoor(state: MockState, basePath: string): (request: Request) => Promise<Response | 'drop'> {
  const { api } = state.contracts
  const table = routeTableOf(operationEntries(api, state.api.handlers, state.core, state.api.plane), (entry) => entry.answer)
  const errorDto = schemaOf(api, 'ErrorDto')

  /** The 404 of an unknown path, once its JSON body, if any, was read without a refusal. */
  async function notFound(call: CallRequest, method: string, url: string): Promise<CallOutcome> {
    let error: unknown
    try {
      await readJsonFirst(call)
      const inProcess = url.startsWith(ADMIN_PREFIX) ? ': in process, the control plane is tenant(apiKey) of novu-mock/msw' : ''
      error = new ApiError(404, 'ROUTE_NOT_FOUND', `Cannot ${method} ${url}${inProcess}`)
    } catch (refusal) {
      error = refusal
    }
    const answer = checkedAnswer(errorAnswer(error, { method, url }, state.core), errorDto, url, state.core)
    return { status: answer.status, head: [], text: JSON.stringify(answer.body) }
  }

  return async (request) => {
    const { pathname, search } = new URL(request.url)
    const path = pathname.slice(basePath.length) || '/'
    // As node's server does, a HEAD is answered as its GET, without the body.
    const method = request.method === 'HEAD' ? 'GET' : request.method
    const match = table.match(method, path) ?? table.match(method, path, { lenient: true })
    const call = await callRequestOf(request, path + search, bodyLimitOf(path))
    const outcome = match ? await match.value(call, match.params) : await notFound(call, request.method, path + search)
    if (outcome === 'drop') return 'drop'
    return new Response(request.method === 'HEAD' ? null : outcome.text, { status: outcome.status, headers: headersOf(outcome.head) })
  }
}

function headersOf(head: HeaderList): Headers {
  const headers = new Headers()
  for (let i = 0; i < head.length; i += 2) headers.append(String(head[i]), String(head[i + 1]))
  headers.set('Content-Type', JSON_CONTENT_TYPE)
  return headers
}
