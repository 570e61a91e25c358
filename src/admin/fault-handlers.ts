import { notFound, validationFailed } from '../http/api-error.ts'
import { MAX_RULES, type FaultRules } from '../faults/fault-rules.ts'
import type { FaultRuleRequest } from '../faults/presets.ts'
import type { OperationContext } from '../resources/operation-context.ts'
import type { Contract } from '../contract/load-contract.ts'

/** The fault rules' admin routes; a rule may only answer with a status its operation documents. */
export function faultHandlers(faults: FaultRules, api: Contract) {
  return {
    listFaults: async ({ tenant }: OperationContext<unknown>) => ({ faults: faults.list(tenant.key) }),

    addFault: async ({ tenant, input }: OperationContext<{ body: FaultRuleRequest }>) => {
      checkDocumented(input.body, api)
      const rule = faults.add(tenant.key, input.body)
      if (!rule) throw validationFailed({ general: { messages: [`at most ${MAX_RULES} fault rules per tenant`] } })
      return rule
    },

    clearFaults: async ({ tenant }: OperationContext<unknown>) => ({ cleared: faults.clear(tenant.key) }),

    removeFault: async ({ tenant, input }: OperationContext<{ path: { id: string } }>) => {
      const removed = faults.remove(tenant.key, input.path.id)
      if (!removed) throw notFound('FAULT_NOT_FOUND', `Fault rule ${input.path.id} not found`)
      return removed
    },
  }
}

function checkDocumented(request: FaultRuleRequest, api: Contract): void {
  const { operationId } = request.match ?? {}
  const status = request.respond?.status
  if (operationId !== undefined && !api.operations.has(operationId)) {
    throw validationFailed({ 'match.operationId': { messages: [`no operation ${operationId} in the document`], value: operationId } })
  }
  if (status === undefined || request.preset !== undefined) return
  const operations = operationId === undefined ? [...api.operations.values()] : [api.operations.get(operationId)!]
  const undocumented = operations.filter((operation) => !operation.responseValidators.has(status)).map((o) => o.operationId)
  if (undocumented.length > 0) {
    throw validationFailed({ 'respond.status': { messages: [`status ${status} is not documented for ${undocumented.join(', ')}`], value: status } })
  }
}
