import { notFound, validationFailed } from '../../answer/api-error.ts'
import type { FaultRules } from '../../policies/faults/fault-rules.ts'
import { ruleBytes } from '../../store/tenant-parts/tenant-faults.ts'
import { HEAP_BYTES_PER_JSON_CHAR } from '../../store/memory/held-bytes.ts'
import type { MemoryPort } from '../../store/store.ts'
import { PRESETS, type FaultRuleRequest } from '../../policies/faults/presets.ts'
import type { OperationContext } from '../../resources/operation-context.ts'
import type { Contract } from '../../contract/load-contract.ts'
import { journalName } from '../../contract/novu/operation-names.ts'

/** The fault rules' admin routes; a rule may only answer with a status its operation documents. */
export function faultHandlers(faults: FaultRules, api: Contract, novu: Contract) {
  return {
    listFaults: async ({ tenant }: OperationContext<unknown>) => ({ faults: await faults.list(tenant.key) }),

    addFault: async ({ store, tenant, input }: OperationContext<{ body: FaultRuleRequest }, MemoryPort>) => {
      checkHeaders(input.body.respond?.headers)
      checkDocumented(input.body, api, novu)
      store.makeRoom(tenant.key, ruleBytes(input.body) * HEAP_BYTES_PER_JSON_CHAR, 'Fault rule')
      const rule = await faults.add(tenant.key, input.body)
      if ('refused' in rule) throw validationFailed({ general: { messages: [rule.refused] } })
      return rule
    },

    clearFaults: async ({ tenant }: OperationContext<unknown>) => ({ cleared: await faults.clear(tenant.key) }),

    removeFault: async ({ tenant, input }: OperationContext<{ path: { id: string } }>) => {
      const removed = await faults.remove(tenant.key, input.path.id)
      if (!removed) throw notFound('FAULT_NOT_FOUND', `Fault rule ${input.path.id} not found`)
      return removed
    },
  }
}

/**
 * Headers that say how the message is framed or concern only the connection: the server sets
 * them itself, and a second `Content-Length` or a `Transfer-Encoding` beside its own makes the
 * answer one no client can read (node's fetch fails it with HPE_UNEXPECTED_CONTENT_LENGTH).
 */
const FRAMING_HEADERS: ReadonlySet<string> = new Set(['content-length', 'transfer-encoding', 'connection', 'keep-alive', 'upgrade', 'te', 'trailer', 'host'])

function checkHeaders(headers: Readonly<Record<string, string>> | undefined): void {
  const framing = Object.keys(headers ?? {}).find((name) => FRAMING_HEADERS.has(name.toLowerCase()))
  if (framing === undefined) return
  throw validationFailed({
    [`respond.headers.${framing}`]: { messages: [`${framing} is a framing or hop-by-hop header, which the server sets itself: a fault rule cannot`], value: headers![framing] },
  })
}

/**
 * A rule may only answer with a status (and body) the document allows. A rule naming its
 * operation is checked against it; one without must fit every operation, except a preset, which
 * then applies only to the operations that document its status.
 */
function checkDocumented(request: FaultRuleRequest, api: Contract, novu: Contract): void {
  const { operationId } = request.match ?? {}
  const respond = { ...(request.preset ? PRESETS[request.preset].respond : undefined), ...request.respond }
  // Named by any of its names: the five's, Novu's operationId, the SDK's method (docs/behaviour.md §10).
  const recorded = operationId === undefined ? undefined : journalName(operationId)
  const operation = recorded === undefined ? undefined : (api.operations.get(recorded) ?? novu.operations.get(recorded))
  if (operationId !== undefined && !operation) {
    throw validationFailed({ 'match.operationId': { messages: [`no operation ${operationId} in the document`], value: operationId } })
  }
  if (respond.status === undefined) return
  const status = respond.status
  const named = operation === undefined ? [...api.operations.values()] : [operation]
  const concerned = operationId === undefined && request.preset ? named.filter((o) => o.responseValidators.has(status)) : named
  const undocumented = concerned.filter((o) => !o.responseValidators.has(status)).map((o) => o.operationId)
  if (undocumented.length > 0 || concerned.length === 0) {
    const which = undocumented.length > 0 ? undocumented.join(', ') : 'any operation'
    throw validationFailed({ 'respond.status': { messages: [`status ${status} is not documented for ${which}`], value: status } })
  }
  if (respond.body === undefined) return
  for (const operation of concerned) {
    const validate = operation.responseValidators.get(status)!
    if (!validate(respond.body)) {
      const messages = (validate.errors ?? []).map((e) => `${operation.operationId} ${status}${e.instancePath}: ${e.message}`)
      throw validationFailed({ 'respond.body': { messages } })
    }
  }
}
