import { badRequest, notFound } from '../http/api-error.ts'
import type { StoredMessage } from '../store/records.ts'
import type { OperationContext, OperationInput } from './operation-context.ts'
import { presentMessage } from './present.ts'

type Input = OperationInput<'markMessagesAs'>
type MarkAs = Input['body']['markAs']

export async function markMessagesAs({ store, tenant, input, now }: OperationContext<Input>) {
  const { subscriberId } = input.path
  const ids = messageIdsOf(input.body.messageId)
  if (ids.length === 0) throw badRequest('MESSAGE_ID_REQUIRED', 'messageId is required')
  return store.transact(tenant.key, (tx) => {
    const subscriber = tx.subscriber(subscriberId)
    if (!subscriber) throw notFound('SUBSCRIBER_NOT_FOUND', `Subscriber ${subscriberId} not found`)
    const at = now().toISOString()
    const updated: StoredMessage[] = []
    for (const id of ids) {
      const message = tx.message(id)
      // Other subscribers' messages and unknown ids are passed over, as the service does.
      if (!message || message._subscriberId !== subscriber._id) continue
      const next = marked(message, input.body.markAs, at)
      tx.putMessage(next)
      updated.push(next)
    }
    return updated.map((message) => presentMessage(message, tenant))
  })
}

/** A string is a comma-separated list; blanks are dropped and repeats kept once, first order. */
function messageIdsOf(messageId: string | string[]): string[] {
  const parts = typeof messageId === 'string' ? messageId.split(',') : messageId
  return [...new Set(parts.map((id) => id.trim()).filter((id) => id !== ''))]
}

/**
 * Keeps the states ordered, unseen < seen < read, so `read` always implies `seen`. A copy and
 * plain stores rather than a spread with fields: a seeded message lacks the dates, and adding
 * them after a spread gives every copy a hidden class of its own (docs/decisions.md, 2026-11-24).
 */
function marked(message: StoredMessage, markAs: MarkAs, at: string): StoredMessage {
  const next = Object.assign({}, message)
  switch (markAs) {
    case 'read':
    case 'unread':
      next.read = markAs === 'read'
      next.seen = true
      next.lastReadDate = at
      break
    case 'seen':
      next.seen = true
      break
    case 'unseen':
      next.seen = false
      next.read = false
      break
  }
  next.lastSeenDate = at
  return next
}
