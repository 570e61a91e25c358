import type { Contract } from '../contract/load-contract.ts'
import { validateRequestInSlices } from '../contract/validation/validate-in-slices.ts'
import { SlicedJson } from '../answer/answer.ts'
import { apiKeyFrom } from '../core/authenticate.ts'
import type { CoreState } from '../core/planes.ts'
import { tooDeep } from '../core/body/body-reading.ts'
import { valueNestsDeeperThan } from '../lib/json/json-depth.ts'
import { jsonInSteps } from '../lib/json/json-in-steps.ts'
import { jsonOutSteps } from '../lib/json/json-out-steps.ts'
import { inSlices, valuesInSlices } from '../lib/slices.ts'
import type { Handler } from '../resources/operation-context.ts'
import { tenantFor } from '../resources/tenant.ts'

type AdminOperations = import('../contract/generated/admin-types.ts').operations
type JsonOf<R> = R extends { content: { 'application/json': infer B } } ? B : never

/** What an admin operation answers on success (its one 200 or 201), as the document types it. */
export type AdminResult<K extends keyof AdminOperations> = JsonOf<
  AdminOperations[K]['responses'] extends { 200: infer R } ? R : AdminOperations[K]['responses'] extends { 201: infer R } ? R : never
>

/** An admin call's parameters and body, as its route would have read them from the request. */
export interface AdminInput {
  path?: Record<string, unknown>
  query?: Record<string, unknown>
  body?: unknown
}

/**
 * An admin operation run in process for the tenant of `apiKey`: its result, or the ApiError its
 * route would have answered with.
 */
export type AdminCall = <K extends keyof AdminOperations>(operationId: K, apiKey: string, input?: AdminInput) => Promise<AdminResult<K>>

/**
 * The control plane's handlers without HTTP, for the library's Tenant: the same key check, tenant,
 * validation against spec/admin.yaml and handler as the route, and JSON in and out as over the
 * wire, so neither side keeps a reference to the other's objects. No admin guard: the guard keeps
 * other machines out, and this caller is the program that started the server.
 */
export function adminCalls(admin: Contract, handlers: Record<string, Handler>, deps: Pick<CoreState, 'store' | 'apiKeys' | 'clocks'>): AdminCall {
  return async (operationId, apiKey, { path = {}, query = {}, body } = {}) => {
    const operation = admin.operations.get(operationId)
    const handler = handlers[operationId]
    if (!operation || !handler) throw new Error(`no admin operation ${operationId} to call`)
    // As on the admin routes, looking never makes the store hold the tenant (docs/behaviour.md §3).
    const key = apiKeyFrom(`ApiKey ${apiKey}`, deps.apiKeys)
    // As the route reads a body: one nested too deep is refused before anything walks it.
    if (valueNestsDeeperThan(body)) throw tooDeep()
    // Copied: validation coerces and fills defaults in place.
    const input = await validateRequestInSlices(operation, { path: { ...path }, query: { ...query }, header: {} }, jsonCopy(body))
    // The handler map is keyed by operationId; its input type is the one this operation validated.
    // The tenant's time, read once, as a route reads it (docs/behaviour.md §8).
    const at = new Date(await deps.clocks.now(key))
    const result = await handler({ store: deps.store, tenant: tenantFor(key), input: input as never, now: () => at })
    const copy = result instanceof SlicedJson ? await jsonCopyInSlices(result.value) : jsonCopy(result)
    return copy as AdminResult<typeof operationId>
  }
}

/**
 * A large result (a whole state, the journal) copied as it would cross the wire, in slices between
 * turns of the event loop, as its route writes it and as a body that size is read (docs/behaviour.md §6).
 */
async function jsonCopyInSlices(value: object): Promise<unknown> {
  const encoder = new TextEncoder()
  const parts: Uint8Array[] = []
  let length = 0
  for await (const chunk of valuesInSlices(jsonOutSteps(value))) {
    parts.push(encoder.encode(chunk))
    length += parts.at(-1)!.length
  }
  const bytes = new Uint8Array(length)
  parts.reduce((at, part) => (bytes.set(part, at), at + part.length), 0)
  const read = await inSlices(jsonInSteps(bytes), 1)
  // Text it does not read in steps is read whole, as before.
  return read.kind === 'value' ? read.value : JSON.parse(new TextDecoder().decode(bytes))
}

const jsonCopy = (value: unknown): unknown => (value === undefined ? undefined : JSON.parse(JSON.stringify(value)))
