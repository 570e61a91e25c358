import { missing } from '../rule-broken.ts'
import type { Store } from '../../store/store.ts'
import { writeCredentials } from './credentials.ts'
import type { OperationContext, OperationInput } from '../operation-context.ts'

/* The credentials' operations beyond the upsert of §2.1 (docs/behaviour.md §11). */

/** PUT /v1/subscribers/{subscriberId}/credentials: §2.1, the device tokens sent replacing the stored ones. */
export function updateSubscriberChannel(context: OperationContext<OperationInput<'upsertSubscriberCredentials'>, Store>) {
  return writeCredentials(context, 'replace')
}

/** DELETE /v1/subscribers/{subscriberId}/credentials/{providerId}: every channel entry of the provider goes (none: still done); no body. */
export async function deleteSubscriberCredentials({ store, tenant, input, now }: OperationContext<{ path: { subscriberId: string; providerId: string } }, Store>) {
  const { subscriberId, providerId } = input.path
  await store.transact(tenant.key, (tx) => {
    const subscriber = tx.subscriber(subscriberId)
    if (!subscriber) throw missing('SUBSCRIBER_NOT_FOUND', `Subscriber '${subscriberId}' was not found`)
    const channels = subscriber.channels ?? []
    const kept = channels.filter((channel) => channel.providerId !== providerId)
    if (kept.length !== channels.length) tx.putSubscriber({ ...subscriber, channels: kept, updatedAt: now().toISOString() })
  })
  return undefined
}
