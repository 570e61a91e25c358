import type { StoredIntegration } from '../../store/records.ts'

/** The interface: the primary "is used to deliver notifications for the sms and email channels". */
export const CHANNELS_WITH_PRIMARY: ReadonlySet<string> = new Set(['email', 'sms'])

/** The integrations the API still shows: a deleted one is kept, flagged, and seen by nothing. */
export const isLive = (integration: StoredIntegration) => !integration.deleted

export const byPriorityDescending = (a: StoredIntegration, b: StoredIntegration) => b.priority - a.priority || (a._id < b._id ? -1 : 1)

/** The channel's live, active integrations other than `except`, highest priority first. */
export function activePeers(all: Iterable<StoredIntegration>, channel: string, except?: string): StoredIntegration[] {
  return [...all].filter((i) => isLive(i) && i.active && i.channel === channel && i._id !== except).sort(byPriorityDescending)
}

/** What an integration joining the channel's active ones gets, and the peers that change with it. */
export interface Placement {
  priority: number
  /** May it become primary (create only: an update never makes one). */
  primary: boolean
  changed: StoredIntegration[]
}

/**
 * An integration joining the channel's active ones (docs/behaviour.md §11): when the top one is
 * primary it takes the primary's priority and the primary moves one up; otherwise it goes on top,
 * primary when `mayBePrimary`.
 */
export function placeAmong(peers: readonly StoredIntegration[], mayBePrimary: boolean): Placement {
  const top = peers[0]
  if (top?.primary) return { priority: top.priority, primary: false, changed: [{ ...top, priority: top.priority + 1 }] }
  return { priority: (top?.priority ?? 0) + 1, primary: mayBePrimary, changed: [] }
}

/** The channel's active ones after one left: n..1 in their previous order, only those that moved. */
export function renumbered(peers: readonly StoredIntegration[]): StoredIntegration[] {
  return peers.flatMap((peer, rank) => (peer.priority === peers.length - rank ? [] : [{ ...peer, priority: peers.length - rank }]))
}
