import type { Store } from '../../store/store.ts'
import type { Handler, OperationContext } from '../operation-context.ts'

interface CreateWorkflow {
  workflowId: string
  name: string
  active?: boolean
}

/**
 * POST /v2/workflows keeps the workflow's identifier, name and whether it is active, which a
 * trigger matches its `name` against (docs/behaviour.md §11); its answer stays the document's.
 * The answer is the transaction's result, so that it is checked before the workflow is kept.
 */
export function keepingWorkflow(documented: Handler): Handler {
  return async (context) => {
    const { store, tenant, input } = context as unknown as OperationContext<{ body: CreateWorkflow }, Store>
    const { workflowId, name, active = false } = input.body
    const answer = await documented(context)
    return store.transact(tenant.key, (tx) => {
      tx.putWorkflow({ workflowId, name, active })
      return answer
    })
  }
}
