import { Serialized, SlicedJson } from '../../answer/answer.ts'
import { validateRequestInSlices } from '../../contract/validation/validate-in-slices.ts'
import { validateRequest } from '../../contract/validation/validate-request.ts'
import { tenantFor } from '../../resources/tenant.ts'
import type { Store } from '../../store/store.ts'
import { paramsOf } from '../call-request.ts'
import { callStore, checkedBeforeCommit } from '../call-records/call-store.ts'
import { ReadCapture } from '../call-records/read-capture.ts'
import type { Call, Step } from './call.ts'

/** The request against the document (docs/behaviour.md §1.2): its input, coerced, or the 422. The API's bodies are small. */
export const validate: Step = (call) => {
  call.input = validateRequest(call.run.operation, paramsOf(call.run.operation, call.request, call.line, call.params), call.body)
}

/** The control plane's bodies may be whole states, checked in slices between other calls (docs/behaviour.md §6). */
export const validateInSlices: Step = async (call) => {
  call.input = await validateRequestInSlices(call.run.operation, paramsOf(call.run.operation, call.request, call.line, call.params), call.body)
}

/**
 * The operation's handler: the rules of the service. The API's calls are journaled, so theirs
 * note the records they read (their provider state, docs/behaviour.md §9).
 */
export const runRule: Step = async (call) => {
  const { operation, handler, policies } = call.run
  const store = storeOf(call)
  const reads = policies ? (call.reads = new ReadCapture()).over(store) : store
  // The handler map is keyed by operationId; its input type is the one this operation validated.
  const result = await handler({ store: reads, tenant: tenantFor(call.tenantKey ?? ''), input: call.input as never, now: call.now })
  if (result instanceof Serialized) call.answer = { status: operation.successStatus, body: result.value, text: result.text }
  else if (result instanceof SlicedJson) call.answer = { status: operation.successStatus, body: result.value, sliced: true }
  else call.answer = { status: operation.successStatus, body: result }
}

/**
 * The store as the call's handler sees it (callStore); the store itself when there is nothing to
 * add. In strict mode a change's answer is checked before it commits; warn and off send it as made.
 */
function storeOf(call: Call): Store {
  const { operation, state, policies } = call.run
  const recordOf = call.recording && policies?.idempotency.recordOfWrite(call.recording, operation.successStatus)
  const guard = call.recording && policies?.idempotency.guardOf(call.recording)
  const check = state.mode === 'strict' ? (result: unknown) => void (call.checked = checkedBeforeCommit(operation, result, call.line.url, call)) : undefined
  return check || recordOf || guard ? callStore(state.store, check, recordOf, guard) : state.store
}
