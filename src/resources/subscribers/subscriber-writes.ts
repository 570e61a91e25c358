import { exists, invalid, missing } from '../rule-broken.ts'
import type { Store } from '../../store/store.ts'
import type { OperationContext } from '../operation-context.ts'
import { presentSubscriberV2 } from '../records/present.ts'
import { checkFields, patchedSubscriber, problemsOf, upsertSubscriber, type Settable, type SubscriberFields } from './subscriber-fields.ts'

/* POST, PATCH and DELETE of Novu's subscribers (docs/behaviour.md §11), over the records GET /v2/subscribers/{id} reads. */

interface Call<Path, Query, Body> {
  path: Path
  query: Query
  body: Body
}

/** POST /v2/subscribers: an upsert by `subscriberId` (201 either way); `failIfExists=true` refuses an existing id. */
export async function createSubscriber({ store, tenant, input, now }: OperationContext<Call<unknown, { failIfExists?: boolean }, SubscriberFields>, Store>) {
  const fields = input.body
  checkFields(fields, true)
  return store.transact(tenant.key, (tx) => {
    const existing = tx.subscriber(fields.subscriberId)
    if (input.query.failIfExists === true && existing) {
      // Novu's document (and so the SDK) reads this 409's body as the subscriber: it carries both.
      throw exists('SUBSCRIBER_EXISTS', `Subscriber with id "${fields.subscriberId}" already exists`, presentSubscriberV2(existing, tenant))
    }
    return presentSubscriberV2(upsertSubscriber(tx, fields, now(), true).record, tenant)
  })
}

/** The live service's bound on one bulk call (its DTO's ArrayMaxSize). */
const BULK_MAX = 500

/** POST /v1/subscribers/bulk: each created or updated as POST /v2/subscribers does; a subscriber whose fields break a rule is listed failed. */
export async function bulkCreateSubscribers({ store, tenant, input, now }: OperationContext<Call<unknown, unknown, { subscribers: SubscriberFields[] }>, Store>) {
  const { subscribers } = input.body
  // The document sets no maxItems: the bound is the service's, in class-validator's words.
  if (subscribers.length > BULK_MAX) throw invalid([`subscribers must contain no more than ${BULK_MAX} elements`])
  return store.transact(tenant.key, (tx) => {
    const answer = { updated: [] as { subscriberId: string }[], created: [] as { subscriberId: string }[], failed: [] as { message: string; subscriberId?: string }[] }
    const at = now()
    for (const fields of subscribers) {
      const problems = problemsOf(fields, true)
      if (problems.length > 0) {
        answer.failed.push({ message: problems.join(', '), ...(fields.subscriberId ? { subscriberId: fields.subscriberId } : {}) })
        continue
      }
      const { created } = upsertSubscriber(tx, fields, at, true)
      ;(created ? answer.created : answer.updated).push({ subscriberId: fields.subscriberId })
    }
    return answer
  })
}

/** PATCH /v2/subscribers/{subscriberId}: the fields sent; `null` clears; `data` replaced whole. */
export async function patchSubscriber({ store, tenant, input, now }: OperationContext<Call<{ subscriberId: string }, unknown, Settable>, Store>) {
  const { subscriberId } = input.path
  checkFields(input.body, false)
  return store.transact(tenant.key, (tx) => {
    const existing = tx.subscriber(subscriberId)
    if (!existing) throw missing('SUBSCRIBER_NOT_FOUND', `Subscriber ${subscriberId} was not found`)
    const record = patchedSubscriber(existing, input.body, now())
    tx.putSubscriber(record)
    return presentSubscriberV2(record, tenant)
  })
}

/** DELETE /v2/subscribers/{subscriberId}: a hard delete of the subscriber (its credentials with it) and of its messages. */
export async function removeSubscriber({ store, tenant, input }: OperationContext<Call<{ subscriberId: string }, unknown, unknown>, Store>) {
  const { subscriberId } = input.path
  return store.transact(tenant.key, (tx) => {
    const existing = tx.subscriber(subscriberId)
    if (!existing) throw missing('SUBSCRIBER_NOT_FOUND', 'Subscriber was not found')
    const theirs = [...tx.messages((message) => message._subscriberId === existing._id)]
    for (const message of theirs) tx.deleteMessage(message._id)
    tx.deleteSubscriber(subscriberId)
    return { acknowledged: true, status: 'deleted' }
  })
}
