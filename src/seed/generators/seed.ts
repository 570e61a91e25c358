import { readFileSync } from 'node:fs'
import { inSlices, toEnd, type Steps } from '../../lib/slices.ts'
import type { StoredChannelConnection, StoredMessage, StoredSubscriber, TenantState } from '../../store/records.ts'
import { MESSAGES_PER_SUBSCRIBER, type WellKnownRecords } from '../seed-options.ts'
import type { SeedSpec } from '../../store/store.ts'
import { demoState } from './demo.ts'
import { channelConnectionMaker } from './channel-connection.ts'
import { makeMessage } from './message.ts'
import { makeSubscriber } from './subscriber.ts'
import { WELL_KNOWN_FILES } from '../well-known-files.ts'
import { progressCounter, type SeedProgress } from '../progress-counter.ts'

export type { SeedProgress } from '../progress-counter.ts'
export type { SeedVolumes, WellKnownRecords } from '../seed-options.ts'

/** The records of docs/behaviour.md §5, as the JSON files hold them (checked by the caller). */
export function readWellKnown(): WellKnownRecords {
  const read = (file: string) => JSON.parse(readFileSync(file, 'utf8'))
  return {
    subscribers: read(WELL_KNOWN_FILES.subscribers),
    integrations: read(WELL_KNOWN_FILES.integrations),
    messages: read(WELL_KNOWN_FILES.messages),
  }
}

/**
 * Every tenant's starting records: the well-known ones, then generated ones up to the volumes
 * (`fixtures` are seeding.ts's). `onProgress` is told how many records have been generated so far, of how many.
 */
export function seedState(options: SeedSpec, onProgress?: SeedProgress, wellKnown: WellKnownRecords = readWellKnown()): TenantState {
  return toEnd(seedSteps(options, wellKnown, onProgress))
}

/** The same records, made a slice at a time between turns of the event loop: for a tenant created while the server serves others. */
export function seedStateInSlices(options: SeedSpec): Promise<TenantState> {
  return inSlices(seedSteps(options, readWellKnown()))
}

/** seedState's work, one step per record made. */
function* seedSteps(options: SeedSpec, wellKnown: WellKnownRecords, onProgress?: SeedProgress): Steps<TenantState> {
  if (options.demo) return demoState(options, wellKnown, onProgress)
  const generatedSubscribers = Math.max(0, options.subscribers - wellKnown.subscribers.length)
  const messageTotal = options.messages ?? wellKnown.messages.length + MESSAGES_PER_SUBSCRIBER * generatedSubscribers
  const made = progressCounter(onProgress, generatedSubscribers + options.channelConnections + Math.max(0, messageTotal - wellKnown.messages.length))
  const subscribers = [...wellKnown.subscribers]
  for (let i = subscribers.length; i < options.subscribers; i++, made()) yield void subscribers.push(makeSubscriber(options.seed, i))
  const subscriberIds = subscribers.map((s) => s.subscriberId)
  const makeChannelConnection = channelConnectionMaker(options.seed, subscriberIds)
  const channelConnections: StoredChannelConnection[] = []
  for (let i = 0; i < options.channelConnections; i++, made()) yield void channelConnections.push(makeChannelConnection(i))
  const messages = yield* messagesFor(options.seed, messageTotal, wellKnown, subscribers, made)
  onProgress?.(made.count, made.count)
  return { subscribers, integrations: [...wellKnown.integrations], channelConnections, messages }
}

function* messagesFor(seed: number, total: number, wellKnown: WellKnownRecords, subscribers: StoredSubscriber[], made: () => void): Steps<StoredMessage[]> {
  const owners = subscribers.slice(wellKnown.subscribers.length)
  const recipients = owners.length > 0 ? owners : subscribers
  const messages = [...wellKnown.messages]
  for (let i = 0; messages.length < total; i++, made()) {
    const owner = owners.length > 0 ? recipients[Math.floor(i / MESSAGES_PER_SUBSCRIBER) % recipients.length]! : recipients[i % recipients.length]!
    yield void messages.push(makeMessage(seed, i, owner._id!))
  }
  return messages
}
