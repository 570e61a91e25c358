import { isDeepStrictEqual } from 'node:util'
import { refused } from '../rule-broken.ts'
import type { StoredIntegration, StoredSubscriber } from '../../store/records.ts'
import type { TenantView } from '../../store/store.ts'
import type { OperationInput, RecordsContext } from '../operation-context.ts'
import { presentSubscriber } from '../records/present.ts'

type Input = OperationInput<'upsertSubscriberCredentials'>
type ChannelSettings = NonNullable<StoredSubscriber['channels']>[number]
type Credentials = ChannelSettings['credentials']

export function upsertSubscriberCredentials(context: RecordsContext<Input>) {
  return writeCredentials(context, 'append')
}

/**
 * PATCH appends the device tokens sent to the stored ones (docs/behaviour.md §2.1); PUT (§11)
 * replaces them with those sent. Every other rule is the same.
 */
export async function writeCredentials({ store, tenant, input, now }: RecordsContext<Input>, tokens: 'append' | 'replace') {
  const { subscriberId } = input.path
  const { providerId, credentials } = input.body
  // An empty identifier is none: the live service tests it by truthiness (docs/behaviour.md §1.6).
  const integrationIdentifier = input.body.integrationIdentifier || undefined
  return store.transact(tenant.key, (tx) => {
    const subscriber = tx.subscriber(subscriberId)
    if (!subscriber) throw refused('SUBSCRIBER_NOT_FOUND', `SubscriberId: ${subscriberId} not found`)
    const integration = activeIntegrationFor(tx, providerId, integrationIdentifier)
    if (!integration) {
      throw refused(
        'NO_ACTIVE_INTEGRATION',
        `Subscribers environment (${tenant.environmentId}) do not have active ${providerId} integration.`,
      )
    }
    const channels = subscriber.channels ?? []
    const at = channels.findIndex((c) => c.providerId === providerId && c._integrationId === integration._id)
    // The identifier only chooses the integration; the live service does not store it.
    const entry: ChannelSettings =
      at === -1
        ? { providerId, _integrationId: integration._id, credentials: kept(credentials) }
        : { ...channels[at]!, credentials: merge(channels[at]!.credentials, credentials, tokens) }
    checkTokenLimit(entry.credentials)
    if (at !== -1 && isDeepStrictEqual(entry, channels[at])) return presentSubscriber(subscriber, tenant)
    const next = {
      ...subscriber,
      channels: at === -1 ? [...channels, entry] : channels.map((c, i) => (i === at ? entry : c)),
      updatedAt: now().toISOString(),
    }
    tx.putSubscriber(next)
    return presentSubscriber(next, tenant)
  })
}

/** The most recently created active integration not deleted of the provider (and identifier, when given). */
function activeIntegrationFor(view: TenantView, providerId: string, identifier: string | undefined) {
  let newest: StoredIntegration | undefined
  for (const integration of view.integrations()) {
    if (!integration.active || integration.deleted || integration.providerId !== providerId) continue
    if (identifier !== undefined && integration.identifier !== identifier) continue
    if (!newest || isNewer(integration, newest)) newest = integration
  }
  return newest
}

const isNewer = (a: StoredIntegration, b: StoredIntegration) =>
  a.createdAt > b.createdAt || (a.createdAt === b.createdAt && a._id > b._id)

/** Only these fields are stored; the service accepts and drops the rest. */
function kept(sent: Credentials): Credentials {
  const stored: Credentials = {}
  if (sent.webhookUrl !== undefined) stored.webhookUrl = sent.webhookUrl
  if (sent.channel !== undefined) stored.channel = sent.channel
  if (sent.deviceTokens !== undefined) stored.deviceTokens = unique(sent.deviceTokens)
  return stored
}

/** New tokens are appended after the old ones (or replace them); an explicit `[]` clears them; absent leaves them. */
function merge(old: Credentials, sent: Credentials, tokens: 'append' | 'replace'): Credentials {
  const update = kept(sent)
  const merged = { ...old, ...update }
  if (tokens === 'append' && update.deviceTokens && update.deviceTokens.length > 0) {
    merged.deviceTokens = unique([...(old.deviceTokens ?? []), ...update.deviceTokens])
  }
  return merged
}

const unique = (values: readonly string[]) => [...new Set(values)]

/** The live service's bound on a channel's tokens, after the merge (docs/behaviour.md §2.1). */
const MAX_DEVICE_TOKENS = 100

function checkTokenLimit({ deviceTokens = [] }: Credentials): void {
  if (deviceTokens.length <= MAX_DEVICE_TOKENS) return
  throw refused(
    'DEVICE_TOKENS_LIMIT',
    `Device tokens limit exceeded. Maximum allowed tokens per subscriber channel is ${MAX_DEVICE_TOKENS}, but got ${deviceTokens.length} tokens.`,
  )
}
