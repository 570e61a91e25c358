import type { StoredIntegration } from '../../store/records.ts'
import type { RecordsPort, TenantTransaction } from '../../store/store.ts'
import type { NovuInput } from '../novu-input.ts'
import type { OperationContext } from '../operation-context.ts'
import { presentIntegration } from '../records/present.ts'
import { missing, refused } from '../rule-broken.ts'
import { refuseTakenIdentifier, storedConditions, storedConfigurations } from './integration-fields.ts'
import { activePeers, CHANNELS_WITH_PRIMARY, isLive, placeAmong, renumbered } from './priorities.ts'

type Context = OperationContext<NovuInput, RecordsPort>

/** The fields PUT changes; others are accepted and ignored, as the live service's use case does. */
const UPDATABLE = ['name', 'identifier', 'active', 'credentials', 'configurations', 'conditions'] as const

/** PUT /v1/integrations/{integrationId} (docs/behaviour.md §11): never makes a primary. */
export async function updateIntegration({ store, tenant, input }: Context) {
  const { integrationId } = input.path as { integrationId: string }
  const body = input.body
  if (!UPDATABLE.some((field) => body[field] !== undefined)) throw refused('NO_PROPERTIES', 'No properties found for update')
  return store.transact(tenant.key, (tx) => {
    const old = liveIntegration(tx, integrationId)
    const identifier = typeof body.identifier === 'string' ? body.identifier : old.identifier
    if (identifier !== old.identifier) refuseTakenIdentifier(tx.integrations(), identifier)
    const next: StoredIntegration = { ...old, identifier }
    if (typeof body.name === 'string') next.name = body.name
    if (typeof body.active === 'boolean') next.active = body.active
    if (typeof body.credentials === 'object' && body.credentials !== null) next.credentials = {}
    if (typeof body.configurations === 'object' && body.configurations !== null) next.configurations = storedConfigurations(body.configurations as Record<string, unknown>)
    if (Array.isArray(body.conditions)) next.conditions = storedConditions(body.conditions as Record<string, unknown>[])
    if (next.primary && (next.conditions?.length ?? 0) > 0) next.primary = false
    if (CHANNELS_WITH_PRIMARY.has(old.channel) && next.active !== old.active) reprioritize(tx, next)
    tx.putIntegration(next)
    return presentIntegration(next, tenant)
  })
}

/** DELETE /v1/integrations/{integrationId}: soft, the primary not reassigned; the remaining list. */
export async function deleteIntegration({ store, tenant, input, now }: Context) {
  const { integrationId } = input.path as { integrationId: string }
  return store.transact(tenant.key, (tx) => {
    const old = liveIntegration(tx, integrationId)
    // Flagged, not removed, as the live service's soft delete; it is no longer the channel's primary.
    tx.putIntegration({ ...old, deleted: true, deletedAt: now().toISOString(), primary: false, priority: 0 })
    if (CHANNELS_WITH_PRIMARY.has(old.channel)) for (const peer of renumbered(activePeers(tx.integrations(), old.channel, old._id))) tx.putIntegration(peer)
    return [...tx.integrations()].filter(isLive).map((i) => presentIntegration(i, tenant))
  })
}

function liveIntegration(tx: TenantTransaction, id: string): StoredIntegration {
  const found = tx.integration(id)
  if (!found || !isLive(found)) throw missing('INTEGRATION_NOT_FOUND', `Entity with id ${id} not found`)
  return found
}

/** Activated: placed among the channel's active ones, never primary; deactivated: out, the others n..1. */
function reprioritize(tx: TenantTransaction, next: StoredIntegration): void {
  const peers = activePeers(tx.integrations(), next.channel, next._id)
  if (next.active) {
    const placement = placeAmong(peers, false)
    next.priority = placement.priority
    for (const peer of placement.changed) tx.putIntegration(peer)
    return
  }
  next.primary = false
  next.priority = 0
  for (const peer of renumbered(peers)) tx.putIntegration(peer)
}
