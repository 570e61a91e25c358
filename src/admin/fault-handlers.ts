import { notFound, validationFailed } from '../answer/api-error.ts'
import type { FaultRulesPort } from '../policies/faults/fault-rules-port.ts'
import { MAX_RULE_BYTES, MAX_RULES, ruleBytes } from '../policies/faults/fault-rules.ts'
import { HEAP_BYTES_PER_JSON_CHAR } from '../store/memory/held-bytes.ts'
import type { MemoryPort } from '../store/store.ts'
import { PRESETS, type FaultRuleRequest } from '../policies/faults/presets.ts'
import type { OperationContext } from '../resources/operation-context.ts'
import type { Contract } from '../contract/load-contract.ts'

/** The fault rules' admin routes; a rule may only answer with a status its operation documents. */
export function faultHandlers(faults: FaultRulesPort, api: Contract) {
  return {
    listFaults: async ({ tenant }: OperationContext<unknown>) => ({ faults: await faults.list(tenant.key) }),

    addFault: async ({ store, tenant, input }: OperationContext<{ body: FaultRuleRequest }, MemoryPort>) => {
      checkDocumented(input.body, api)
      const bytes = ruleBytes(input.body)
      const held = (await faults.list(tenant.key)).reduce((sum, rule) => sum + ruleBytes(rule), 0)
      if (held + bytes > MAX_RULE_BYTES) throw validationFailed({ general: { messages: [`at most ${MAX_RULE_BYTES} bytes (1 MiB) of fault rules per tenant`] } })
      store.makeRoom(tenant.key, bytes * HEAP_BYTES_PER_JSON_CHAR, 'Fault rule')
      const rule = await faults.add(tenant.key, input.body)
      if (!rule) throw validationFailed({ general: { messages: [`at most ${MAX_RULES} fault rules per tenant`] } })
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
 * A rule may only answer with a status (and body) the document allows. A rule naming its
 * operation is checked against it; one without must fit every operation, except a preset, which
 * then applies only to the operations that document its status.
 */
function checkDocumented(request: FaultRuleRequest, api: Contract): void {
  const { operationId } = request.match ?? {}
  const respond = { ...(request.preset ? PRESETS[request.preset].respond : undefined), ...request.respond }
  if (operationId !== undefined && !api.operations.has(operationId)) {
    throw validationFailed({ 'match.operationId': { messages: [`no operation ${operationId} in the document`], value: operationId } })
  }
  if (respond.status === undefined) return
  const status = respond.status
  const named = operationId === undefined ? [...api.operations.values()] : [api.operations.get(operationId)!]
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
