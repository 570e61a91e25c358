import { missing } from '../rule-broken.ts'
import type { OperationInput, RecordsContext } from '../operation-context.ts'
import { presentSubscriberV2 } from '../records/present.ts'

export async function getSubscriber({ store, tenant, input }: RecordsContext<OperationInput<'getSubscriber'>>) {
  const { subscriberId } = input.path
  const record = await store.read(tenant.key, (view) => view.subscriber(subscriberId))
  if (!record) throw missing('SUBSCRIBER_NOT_FOUND', `Subscriber: ${subscriberId} was not found`)
  return presentSubscriberV2(record, tenant)
}
