import type { Operation } from '../contract/operation.ts'
import type { Handler } from '../resources/operation-context.ts'
import type { CallRequest } from './call-request.ts'
import type { CoreState, Plane } from './planes.ts'
import type { CallOutcome } from './answers/sent-answer.ts'
import { Call, type OperationRun } from './steps/call.ts'
import { API_CALL, CONTROL_CALL } from './steps/call-steps.ts'
import { runCall } from './steps/run-call.ts'

/** One call of an operation, its path parameters already matched, to its outcome. Never rejects. */
export type OperationPipeline = (request: CallRequest, params: Record<string, string>) => Promise<CallOutcome>

/** The list page already has its `data` and is never wrapped. */
const UNWRAPPED: ReadonlySet<string> = new Set(['listChannelConnections'])

/** An operation's calls, each through its plane's steps (steps/call-steps.ts). */
export function operationPipeline(operation: Operation, handler: Handler, state: CoreState, plane: Plane): OperationPipeline {
  const api = plane.name === 'api'
  const run: OperationRun = {
    operation,
    handler,
    state,
    policies: api ? plane.policies : undefined,
    wraps: api && plane.envelope && !UNWRAPPED.has(operation.operationId) && !operation.pageAnswer,
    needsKey: operation.requiresAuth || (plane.name === 'control' && plane.keyRequired === true),
  }
  const steps = api ? API_CALL : CONTROL_CALL
  return (request, params) => runCall(new Call(run, request, params), steps)
}
