import type { StoredChannelConnection } from '../../store/records.ts'
import { fakerFor, idFor, RecordRandom } from './seeded-faker.ts'

/** Providers that have a well-known integration, so each connection names a real one. */
const PROVIDERS = [
  { providerId: 'slack', channel: 'chat', integrationIdentifier: 'slack' },
  { providerId: 'fcm', channel: 'push', integrationIdentifier: 'fcm' },
  { providerId: 'apns', channel: 'push', integrationIdentifier: 'apns' },
] as const
// Shared between records: a record is never changed in place (a write replaces it).
const CONTEXTS: readonly string[][] = [[], ['tenant:acme'], ['tenant:acme', 'region:eu']]
const WORKSPACE_NAMES = 64

/** One connection in ten is shared: linked to a workspace, not to a subscriber (docs/behaviour.md §2.4). */
export const isSharedConnection = (index: number) => index % 10 === 9

/**
 * Connections come by the million (`--connections`), so each is made from its own small random
 * source rather than a re-seeded faker; workspace names come from a pool faker makes once per seed.
 */
export function channelConnectionMaker(seed: number, subscriberIds: readonly string[]): (index: number) => StoredChannelConnection {
  const workspaceNames = Array.from({ length: WORKSPACE_NAMES }, (_, i) => fakerFor(seed, 'workspace', i).company.name())
  // The first two connections belong to the well-known subscribers; the rest pick at random.
  return (index) => {
    const random = new RecordRandom(seed, 'channel-connection', index)
    const provider = random.pick(PROVIDERS)
    const createdAt = random.pastMs()
    const workspaceId = random.alphanumeric(9, { upper: true, prefix: 'T' })
    // Drawn for every record, shared or not, so that the draws after it stay where they were.
    const owner = index < 2 && index < subscriberIds.length ? subscriberIds[index]! : random.pick(subscriberIds)
    return {
      _id: idFor('65c0', index),
      identifier: `${provider.providerId}-endpoint-${index + 1}`,
      channel: provider.channel,
      providerId: provider.providerId,
      integrationIdentifier: provider.integrationIdentifier,
      subscriberId: isSharedConnection(index) ? null : owner,
      contextKeys: CONTEXTS[index % CONTEXTS.length]!,
      workspace: random.next() < 0.8 ? { id: workspaceId, name: random.pick(workspaceNames) } : { id: workspaceId },
      auth: { accessToken: random.alphanumeric(24, { prefix: 'xoxb-' }) },
      createdAt: new Date(createdAt).toISOString(),
      updatedAt: new Date(random.pastMs(createdAt)).toISOString(),
    }
  }
}
