import { missing } from '../rule-broken.ts'
import type { OperationInput, RecordsContext } from '../operation-context.ts'
import { Serialized } from '../../answer/answer.ts'
import { shownSubscriber } from '../records/present.ts'

export async function getSubscriber({ store, tenant, input }: RecordsContext<OperationInput<'getSubscriber'>>) {
  const { subscriberId } = input.path
  const record = await store.read(tenant.key, (view) => view.subscriber(subscriberId))
  if (!record) throw missing('SUBSCRIBER_NOT_FOUND', `Subscriber: ${subscriberId} was not found`)
  const shown = shownSubscriber(record, tenant)
  return new Serialized(shown.value, shown.text)
}
