import { AnsweredOtherwise, Serialized } from '../../answer/answer.ts'
import type { Operation } from '../../contract/operation.ts'
import type { KeyedWrite, Store, TenantTransaction } from '../../store/store.ts'
import { checkedAnswer, type ResponseCheck } from '../answers/response-check.ts'
import { HandedOnStore } from './handed-on-store.ts'

/**
 * The store as a call's handler sees it: a change's result is checked before it commits, and in a
 * keyed call the change is stored with the call's idempotency record, and first `guard` checks
 * the tenant's value as it stands (a record of the key another process stored answers the call).
 */
export function callStore(
  store: Store,
  check: ((result: unknown) => void) | undefined,
  recordOf: ((result: unknown) => KeyedWrite) | undefined,
  guard?: (() => void) | undefined,
): Store {
  return new CallStore(store, check, recordOf, guard)
}

class CallStore extends HandedOnStore {
  constructor(
    store: Store,
    private readonly check: ((result: unknown) => void) | undefined,
    private readonly recordOf: ((result: unknown) => KeyedWrite) | undefined,
    private readonly guard: (() => void) | undefined,
  ) {
    super(store)
  }

  override transact<T>(tenant: string, work: (tx: TenantTransaction) => T): Promise<T> {
    const { check, guard } = this
    return this.store.transact(
      tenant,
      (tx) => {
        guard?.()
        const result = work(tx)
        check?.(result)
        return result
      },
      this.recordOf,
    )
  }
}

/**
 * A change's answer checked before the change commits: one that breaks the document throws its
 * 500, so that nothing of it is stored (docs/behaviour.md §1.3). Answers the body it checked.
 */
export function checkedBeforeCommit(operation: Operation, result: unknown, path: string, check: ResponseCheck): unknown {
  const body = result instanceof Serialized ? result.value : result
  const answer = checkedAnswer({ status: operation.successStatus, body }, operation.responseValidators.get(operation.successStatus), path, check)
  if (answer.status !== operation.successStatus) throw new AnsweredOtherwise(answer)
  return body
}
