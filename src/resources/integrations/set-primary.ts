import { missing, refused } from '../rule-broken.ts'
import type { StoredIntegration } from '../../store/records.ts'
import type { OperationInput, RecordsContext } from '../operation-context.ts'
import { presentIntegration } from '../records/present.ts'

/** The interface: the primary "is used to deliver notifications for the sms and email channels". */
const CHANNELS_WITH_PRIMARY: ReadonlySet<string> = new Set(['email', 'sms'])

export async function setPrimaryIntegration({
  store,
  tenant,
  input,
}: RecordsContext<OperationInput<'setPrimaryIntegration'>>) {
  const { integrationId } = input.path
  return store.transact(tenant.key, (tx) => {
    const target = tx.integration(integrationId)
    // A deleted integration is kept, flagged, and found by nothing (docs/behaviour.md §11).
    if (!target || target.deleted) throw missing('INTEGRATION_NOT_FOUND', `Integration with id ${integrationId} not found`)
    if (!CHANNELS_WITH_PRIMARY.has(target.channel)) {
      throw refused('PRIMARY_NOT_SUPPORTED', `Channel ${target.channel} does not support primary`)
    }
    if (target.primary) return presentIntegration(target, tenant)
    const peers = [...tx.integrations()].filter((i) => !i.deleted && i._id !== target._id && i.channel === target.channel)
    const activePeers = peers.filter((i) => i.active).sort(byPriorityDescending)
    const top = activePeers.length + 1
    const promoted = { ...target, primary: true, active: true, conditions: [], priority: top }
    tx.putIntegration(promoted)
    activePeers.forEach((peer, rank) => tx.putIntegration({ ...peer, primary: false, priority: top - 1 - rank }))
    for (const peer of peers) if (!peer.active && peer.primary) tx.putIntegration({ ...peer, primary: false })
    return presentIntegration(promoted, tenant)
  })
}

const byPriorityDescending = (a: StoredIntegration, b: StoredIntegration) =>
  b.priority - a.priority || (a._id < b._id ? -1 : 1)
