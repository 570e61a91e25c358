import type { StoredIntegration, StoredMessage, StoredSubscriber } from '../store/records.ts'
import type { SeedProgress } from './progress-counter.ts'

export interface SeedVolumes {
  /** Subscribers in all, the two well-known ones included. */
  subscribers: number
  channelConnections: number
  /** Messages in all, the 13 well-known ones included; default 5 per generated subscriber. */
  messages?: number
}

export interface SeedOptions extends SeedVolumes {
  seed: number
  /** The lively demo data set (src/seed/generators/demo.ts) instead of the plain generated records. */
  demo?: boolean | undefined
  /** Told how many records have been generated so far, of how many. */
  onProgress?: SeedProgress | undefined
}

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
