// Every operation of Novu's document (issue 55, docs/behaviour.md §10): a valid request gets the documented success and a
// body valid against Novu's schema, the same bytes over HTTP and through msw under a frozen clock; an invalid one a 422 naming the field.
import { setupServer } from 'msw/node'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadContracts } from '../../src/app/create-state.ts'
import type { MockServer } from '../../src/app/create-mock-server.ts'
import type { Contracts } from '../../src/contract/load-contract.ts'
import { createNovuMock, type NovuMock } from '../../src/msw/index.ts'
import { novuHandlers } from '../../src/resources/registry/novu-handlers.ts'
import { novuRequests, type NovuRequest } from '../helpers/novu-requests.ts'
import { startTestServer } from '../helpers/start-test-server.ts'

const CLOCK = '2026-03-01T12:00:00.000Z'
const MSW_BASE = 'https://api.novu.co'
const KEY = 'whole-api'

let contracts: Contracts
/**
 * The five's paths keep the five's rules (their own tests), and the operations that keep state (§11) theirs
 * (test/resources/): every other operation of the document is walked here.
 */
let requests: NovuRequest[]
/** The operations that keep state (docs/behaviour.md §11): their answers depend on earlier calls, so they are walked apart. */
const isStateful = (request: NovuRequest) => request.operationId in novuHandlers

function send(base: string, request: NovuRequest, key = KEY, body = request.body): Promise<Response> {
  const headers: Record<string, string> = { Authorization: `ApiKey ${key}`, ...request.headers }
  let sent: BodyInit | undefined
  if (body && 'json' in body) {
    headers['Content-Type'] = 'application/json'
    sent = JSON.stringify(body.json)
  } else if (body) sent = body.form
  return fetch(`${base}${request.url}`, { method: request.method, headers, body: sent })
}

describe("every operation of Novu's document", () => {
  let server: MockServer
  let mock: NovuMock
  const msw = setupServer()
  beforeAll(async () => {
    contracts = await loadContracts()
    const five = new Set([...contracts.api.operations.values()].map((op) => `${op.method} ${op.pathTemplate.replace(/\{[^}]+\}/g, '{}')}`))
    const isFive = (id: string) => {
      const op = contracts.novu.operations.get(id)!
      return five.has(`${op.method} ${op.pathTemplate.replace(/\{[^}]+\}/g, '{}')}`)
    }
    requests = novuRequests().filter((request) => !isFive(request.operationId))
    server = await startTestServer({ clock: Date.parse(CLOCK) })
    mock = await createNovuMock({ clock: CLOCK, logLevel: 'silent' })
    msw.use(...mock.handlers)
    msw.listen({ onUnhandledRequest: 'bypass' })
  })
  afterAll(async () => {
    msw.close()
    await Promise.all([server.close(), mock.close()])
  })

  it('walks 144 operations (149, the five aside)', () => {
    expect(requests).toHaveLength(144)
  })

  it('answers each valid request with its documented success, a body valid against its schema, the same bytes over HTTP and msw', async () => {
    for (const request of requests.filter((r) => !isStateful(r))) {
      const [overHttp, inProcess] = [await send(server.url, request), await send(MSW_BASE, request)]
      const text = await overHttp.text()
      expect(overHttp.status, `${request.operationId}: ${text}`).toBe(request.successStatus)
      expect(await inProcess.text(), request.operationId).toBe(text)
      const operation = contracts.novu.operations.get(request.operationId)!
      const body = text === '' ? undefined : (JSON.parse(text) as unknown)
      const validate = operation.responseValidators.get(request.successStatus)!
      expect(validate(body), `${request.operationId}: ${JSON.stringify(validate.errors)}`).toBe(true)
    }
  })

  it('answers each valid request of a stateful operation with a documented status and a body valid against its schema', async () => {
    const stateful = requests.filter(isStateful)
    expect(stateful.length).toBe(Object.keys(novuHandlers).length)
    for (const request of stateful) {
      const res = await send(server.url, request, 'whole-api-stateful')
      const text = await res.text()
      // A valid request about a record the tenant does not hold: the service's 404 (400 for the credentials, §2.1).
      expect([request.successStatus, 404, 400], `${request.operationId}: ${text}`).toContain(res.status)
      const validate = contracts.novu.operations.get(request.operationId)!.responseValidators.get(res.status)!
      const body = text === '' ? undefined : (JSON.parse(text) as unknown)
      expect(validate(body), `${request.operationId}: ${JSON.stringify(validate.errors)}`).toBe(true)
    }
  })

  it('answers the same bytes to the same call, and to another key but for the tenant’s own ids', async () => {
    for (const request of requests.filter((r) => r.method !== 'DELETE' && !isStateful(r)).slice(0, 40)) {
      const first = await (await send(server.url, request)).text()
      expect(await (await send(server.url, request)).text(), request.operationId).toBe(first)
      const other = await (await send(server.url, request, 'another-key')).text()
      expect(withoutTenantIds(other), request.operationId).toBe(withoutTenantIds(first))
    }
  })

  it('answers a body missing a required field, or with a value outside an enum, 422 naming the field', async () => {
    const withRequired = requests.filter((r) => r.body && 'json' in r.body && r.required.length > 0)
    expect(withRequired.length).toBeGreaterThan(30)
    for (const request of withRequired) {
      const [missing] = request.required
      const { [missing!]: _left, ...rest } = (request.body as { json: Record<string, unknown> }).json
      const res = await send(server.url, request, KEY, { json: rest })
      expect(res.status, request.operationId).toBe(422)
      const body = (await res.json()) as { errors: { general: { messages: string[] } } }
      expect(body.errors.general.messages, request.operationId).toContain(`${missing} should not be null or undefined`)
    }
    for (const request of requests.filter((r) => r.body && 'json' in r.body && r.enums.length > 0)) {
      const { name, values } = request.enums[0]!
      const res = await send(server.url, request, KEY, { json: { ...(request.body as { json: object }).json, [name]: 'not-a-value' } })
      expect(res.status, request.operationId).toBe(422)
      const body = (await res.json()) as { errors: { general: { messages: string[] } } }
      expect(body.errors.general.messages, request.operationId).toContain(`${name} must be one of the following values: ${values.join(', ')}`)
    }
  })
})

/** An answer with the tenant's own `_organizationId` and `_environmentId` (24 hex, derived from the key) left out. */
function withoutTenantIds(text: string): string {
  return text.replace(/"(_organizationId|_environmentId)":"[0-9a-f]{24}"/g, '"$1":"…"')
}
