import type { StoredMessage } from '../../store/records.ts'
import type { RecordsPort } from '../../store/store.ts'
import type { NovuInput } from '../novu-input.ts'
import type { OperationContext } from '../operation-context.ts'
import { presentMessage } from '../records/present.ts'
import { missing, refused } from '../rule-broken.ts'

type Context = OperationContext<NovuInput, RecordsPort>

/** The live service's bound on a page of messages. */
const MAX_LIMIT = 1000

/**
 * GET /v1/messages (docs/behaviour.md §11): the tenant's messages, newest first, filtered by
 * channel, subscriber and transaction ids, one page of `limit` at `page` (from 0); never enveloped.
 */
export async function listMessages({ store, tenant, input }: Context) {
  const query = input.query
  const page = wholeAtLeastZero(query.page, 0)
  const limit = wholeAtLeastZero(query.limit, 10)
  if (limit > MAX_LIMIT) throw refused('LIMIT_TOO_LARGE', 'Limit can not be larger then 1000')
  return store.read(tenant.key, (view) => {
    // An empty subscriberId is none: the live service tests it by truthiness (docs/behaviour.md §1.6).
    const subscriberId = typeof query.subscriberId === 'string' && query.subscriberId !== '' ? query.subscriberId : undefined
    let subscriberKey: string | undefined
    if (subscriberId !== undefined) {
      const subscriber = view.subscriber(subscriberId)
      if (!subscriber) throw missing('SUBSCRIBER_NOT_FOUND', `Subscriber '${subscriberId}' was not found`)
      subscriberKey = subscriber._id
    }
    const transactionIds = Array.isArray(query.transactionId) && query.transactionId.length > 0 ? new Set(query.transactionId as string[]) : undefined
    const channel = typeof query.channel === 'string' ? query.channel : undefined
    const matching = [
      ...view.messages(
        (message) =>
          (channel === undefined || message.channel === channel) &&
          (subscriberKey === undefined || message._subscriberId === subscriberKey) &&
          (transactionIds === undefined || transactionIds.has(message.transactionId)),
      ),
    ].sort(newestFirst)
    const data = matching.slice(page * limit, page * limit + limit).map((message) => presentMessage(message, tenant))
    return { page, totalCount: matching.length, hasMore: matching.length > page * limit + data.length, pageSize: limit, data }
  })
}

const newestFirst = (a: StoredMessage, b: StoredMessage) => (a.createdAt === b.createdAt ? (a._id < b._id ? 1 : -1) : a.createdAt < b.createdAt ? 1 : -1)

/** The document types `page` and `limit` as numbers: a fraction counts as its whole part. */
const wholeAtLeastZero = (value: unknown, fallback: number) => (typeof value === 'number' && Number.isFinite(value) ? Math.max(0, Math.floor(value)) : fallback)
