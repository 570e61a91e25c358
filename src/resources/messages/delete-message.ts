import { generalProblem } from '../../answer/api-error.ts'
import type { RecordsPort } from '../../store/store.ts'
import type { NovuInput } from '../novu-input.ts'
import type { OperationContext } from '../operation-context.ts'
import { missing } from '../rule-broken.ts'

type Context = OperationContext<NovuInput, RecordsPort>

const OBJECT_ID = /^[0-9a-f]{24}$/i

/** DELETE /v1/messages/{messageId} (docs/behaviour.md §11): a hard delete. */
export async function deleteMessage({ store, tenant, input }: Context) {
  const { messageId } = input.path as { messageId: string }
  if (!OBJECT_ID.test(messageId)) throw generalProblem(['messageId must be a mongodb id'])
  return store.transact(tenant.key, (tx) => {
    if (!tx.message(messageId)) throw missing('MESSAGE_NOT_FOUND', `Message with id ${messageId} not found`)
    tx.deleteMessage(messageId)
    return { acknowledged: true, status: 'deleted' }
  })
}
