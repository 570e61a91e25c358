import type { StoredMessage } from '../../store/records.ts'
import type { RecordsPort } from '../../store/store.ts'
import { marked } from './mark-as.ts'
import type { NovuInput } from '../novu-input.ts'
import type { OperationContext } from '../operation-context.ts'
import { missing } from '../rule-broken.ts'

type MarkAs = 'read' | 'unread' | 'seen' | 'unseen'
type Context = OperationContext<NovuInput<{ markAs: MarkAs; feedIdentifier?: string | string[] }>, RecordsPort>

/** The messages a mark changes: those in the opposite state, as the live service's query selects them. */
const CHANGES: Record<MarkAs, (message: StoredMessage) => boolean> = {
  read: (message) => !message.read,
  unread: (message) => message.read,
  seen: (message) => !message.seen,
  unseen: (message) => message.seen,
}

/**
 * POST /v1/subscribers/{subscriberId}/messages/mark-all (docs/behaviour.md §11): every in-app
 * message of the subscriber (of the feeds named, when some are) in the opposite state, changed as
 * mark-as changes one; answers how many changed.
 */
export async function markAllMessages({ store, tenant, input, now }: Context) {
  const { subscriberId } = input.path as { subscriberId: string }
  const { markAs, feedIdentifier } = input.body
  const feeds = feedIdentifier === undefined ? undefined : new Set(typeof feedIdentifier === 'string' ? [feedIdentifier] : feedIdentifier)
  return store.transact(tenant.key, (tx) => {
    const subscriber = tx.subscriber(subscriberId)
    if (!subscriber) {
      throw missing('SUBSCRIBER_NOT_FOUND', `Subscriber ${subscriberId} does not exist in environment ${tenant.environmentId}, please provide a valid subscriber identifier`)
    }
    const at = now().toISOString()
    const changing = [
      ...tx.messages(
        (message) => message._subscriberId === subscriber._id && message.channel === 'in_app' && CHANGES[markAs](message) && (!feeds || feeds.has(message._feedId ?? '')),
      ),
    ]
    for (const message of changing) tx.putMessage(marked(message, markAs, at))
    return changing.length
  })
}
