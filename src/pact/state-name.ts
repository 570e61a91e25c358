import type { StoredChannelConnection, StoredIntegration, StoredMessage, StoredSubscriber } from '../store/records.ts'

/** A provider state's records: what the answer depended on, by collection, as before the call. */
export interface StateRecords {
  subscribers?: StoredSubscriber[]
  integrations?: StoredIntegration[]
  channelConnections?: StoredChannelConnection[]
  messages?: StoredMessage[]
}

/** A collection's records in words; past this many, counted instead of named. */
const NAMED = 2

/**
 * What a call needed, in words, as a Pact provider state's name (docs/behaviour.md §9): "subscriber
 * demo-subscriber-2 exists with 2 fcm device tokens". The params, not the name, carry the records.
 */
export function stateName(records: StateRecords): string {
  const parts = [
    ...named(records.subscribers, 'subscribers', subscriberWords),
    ...named(records.integrations, 'integrations', integrationWords),
    ...named(records.messages, 'messages', messageWords),
    ...named(records.channelConnections, 'channel connections', (connection) => `channel connection ${connection.identifier} exists`),
  ]
  return parts.length === 0 ? 'the seeded tenant' : parts.join(' and ')
}

function named<T>(records: readonly T[] | undefined, plural: string, words: (record: T) => string): string[] {
  if (records === undefined || records.length === 0) return []
  if (records.length <= NAMED) return records.map(words)
  return [`${words(records[0]!)} among ${records.length} ${plural}`]
}

function subscriberWords({ subscriberId, channels = [] }: StoredSubscriber): string {
  const tokens = channels
    .map(({ providerId, credentials }) => ({ providerId, count: credentials.deviceTokens?.length ?? 0 }))
    .filter(({ count }) => count > 0)
    .map(({ providerId, count }) => `${count} ${providerId} device token${count === 1 ? '' : 's'}`)
  return `subscriber ${subscriberId} exists${tokens.length === 0 ? '' : ` with ${tokens.join(', ')}`}`
}

const integrationWords = ({ _id, providerId, channel, active, primary }: StoredIntegration): string =>
  `integration ${_id} (${providerId}, ${channel}) is ${active ? 'active' : 'inactive'}${primary ? ' and primary' : ''}`

const messageWords = ({ _id, read, seen }: StoredMessage): string => `message ${_id} is ${read ? 'read' : 'unread'} and ${seen ? 'seen' : 'unseen'}`
