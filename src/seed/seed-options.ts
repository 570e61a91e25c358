import type { StoredIntegration, StoredMessage, StoredSubscriber } from '../store/records.ts'
import type { SeedSpec } from '../store/store.ts'

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
