import type { MockState } from '../app/create-state.ts'
import { schemaOf } from '../contract/load-contract.ts'
import { bodyLimitOf } from '../core/body/body-limit.ts'
import { Dispatcher, routeNotFound } from '../core/dispatcher.ts'
import { apiEntries } from '../core/operation-table.ts'
import { JSON_CONTENT_TYPE, type HeaderList } from '../core/answers/sent-answer.ts'
import { fetchCallRequest } from './fetch-request.ts'

/** The control plane's prefix: in process, `tenant(apiKey)` is its door (docs/decisions.md, 2026-11-26). */
const ADMIN_PREFIX = '/__admin'

/**
 * Answers a WHATWG `Request` under `basePath` as the node server answers it, through the same
 * dispatcher (core/dispatcher.ts): the API's operations through the core, anything else the
 * service's 404, a JSON body read before either (docs/behaviour.md §1.3). `'drop'`: a fault closed the connection.
 */
export function mswDoor(state: MockState, basePath: string): (request: Request) => Promise<Response | 'drop'> {
  const dispatcher = new Dispatcher(apiEntries(state.contracts, state.api, state.core, state.api.plane), schemaOf(state.contracts.api, 'ErrorDto'), state.core)
  return async (request) => {
    const { pathname, search } = new URL(request.url)
    const path = pathname.slice(basePath.length) || '/'
    const url = path + search
    const routed = dispatcher.route(request.method, path)
    const call = await fetchCallRequest(request, url, bodyLimitOf(path))
    const inProcess = url.startsWith(ADMIN_PREFIX) ? ': in process, the control plane is tenant(apiKey) of novu-mock/msw' : ''
    const outcome = routed?.entry ? await routed.entry.answer(call, routed.params) : await dispatcher.refused(call, routed?.refusal ?? routeNotFound(request.method, url, inProcess))
    if (outcome === 'drop') return 'drop'
    // A 204 has no body, not even an empty one (Response refuses it).
    const body = request.method === 'HEAD' || outcome.status === 204 ? null : (outcome.text ?? streamOf(outcome.chunks))
    return new Response(body, { status: outcome.status, headers: headersOf(outcome.head) })
  }
}

/** A large body's chunks as the Response's stream, each made when its reader asks for it (a `for await` over the response). */
function streamOf(chunks: AsyncIterable<string>): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder()
  const iterator = chunks[Symbol.asyncIterator]()
  return new ReadableStream({
    async pull(controller) {
      const next = await iterator.next()
      if (next.done) controller.close()
      else controller.enqueue(encoder.encode(next.value))
    },
    async cancel() {
      await iterator.return?.()
    },
  })
}

function headersOf(head: HeaderList): Headers {
  const headers = new Headers()
  for (let i = 0; i < head.length; i += 2) headers.append(String(head[i]), String(head[i + 1]))
  headers.set('Content-Type', JSON_CONTENT_TYPE)
  return headers
}
