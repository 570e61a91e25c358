import type { StoredIntegration, StoredMessage, StoredSubscriber } from '../store/records.ts'
import type { SeedSpec, StateCounts } from '../store/store.ts'

/** The volumes of a seed's description (SeedSpec). */
export type SeedVolumes = Pick<SeedSpec, 'subscribers' | 'channelConnections' | 'messages'>

export interface WellKnownRecords {
  subscribers: StoredSubscriber[]
  integrations: StoredIntegration[]
  messages: StoredMessage[]
}

/** The volumes of the plain seed (docs/behaviour.md §5). */
export const DEFAULT_VOLUMES: SeedVolumes = { subscribers: 50, channelConnections: 120 }
/** Volumes of the demo data set; messages follow the subscribers. */
export const DEMO_VOLUMES: SeedVolumes = { subscribers: 300, channelConnections: 600 }
/** Messages per generated subscriber in demo mode unless `--messages` says otherwise: a lively inbox. */
export const DEMO_MESSAGES_PER_SUBSCRIBER = 8

/** The volumes when none are given: the demo data set's, or the plain seed's. */
export const defaultVolumes = (demo: boolean): SeedVolumes => (demo ? DEMO_VOLUMES : DEFAULT_VOLUMES)

/** Messages per generated subscriber of the plain seed, unless `--messages` says otherwise. */
export const MESSAGES_PER_SUBSCRIBER = 5
/** The well-known subscribers and messages every seed holds (docs/behaviour.md §5). */
const WELL_KNOWN = { subscribers: 2, messages: 13 }

/**
 * The counts a seed's description makes, known before anything is made: what a created tenant
 * will hold (docs/behaviour.md §3). Integrations are the shared seed's (`integrations`): the
 * description does not choose them.
 */
export function seedCounts(spec: SeedSpec, integrations: number): StateCounts {
  const perSubscriber = spec.demo ? DEMO_MESSAGES_PER_SUBSCRIBER : MESSAGES_PER_SUBSCRIBER
  const generated = Math.max(0, spec.subscribers - WELL_KNOWN.subscribers)
  return {
    subscribers: Math.max(spec.subscribers, WELL_KNOWN.subscribers),
    integrations,
    channelConnections: spec.channelConnections,
    messages: spec.messages ?? WELL_KNOWN.messages + perSubscriber * generated,
  }
}
