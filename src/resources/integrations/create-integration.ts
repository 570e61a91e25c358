import { generalProblem } from '../../answer/api-error.ts'
import type { StoredIntegration } from '../../store/records.ts'
import type { RecordsPort, TenantTransaction } from '../../store/store.ts'
import type { NovuInput } from '../novu-input.ts'
import type { OperationContext } from '../operation-context.ts'
import { presentIntegration } from '../records/present.ts'
import { newRecordId, suffixOf } from '../records/record-ids.ts'
import { refuseTakenIdentifier, slugOf, storedConditions, storedConfigurations } from './integration-fields.ts'
import { activePeers, CHANNELS_WITH_PRIMARY, placeAmong } from './priorities.ts'
import { providerDefaults } from './providers.ts'

/** The channels the records hold (Novu's document adds `tool`, which the mock does not keep: a listed difference). */
export const STORED_CHANNELS = ['in_app', 'email', 'sms', 'chat', 'push'] as const

type Context = OperationContext<NovuInput, RecordsPort>

/** POST /v1/integrations (docs/behaviour.md §11). */
export async function createIntegration({ store, tenant, input, now }: Context) {
  const body = input.body
  const providerId = typeof body.providerId === 'string' ? body.providerId : undefined
  if (providerId === undefined) throw generalProblem(['providerId should not be null or undefined'])
  const defaults = providerDefaults(providerId)
  const channel = typeof body.channel === 'string' ? body.channel : defaults.channel
  if (channel === undefined) throw generalProblem(['channel should not be null or undefined'])
  if (!(STORED_CHANNELS as readonly string[]).includes(channel)) throw generalProblem([`channel must be one of the following values: ${STORED_CHANNELS.join(', ')}`])
  const at = now().toISOString()
  return store.transact(tenant.key, (tx) => {
    const name = typeof body.name === 'string' && body.name !== '' ? body.name : defaults.name
    const identifier = typeof body.identifier === 'string' && body.identifier !== '' ? body.identifier : defaultIdentifier(tx, tenant.key, name, at)
    refuseTakenIdentifier(tx.integrations(), identifier)
    const active = body.active === true
    const record: StoredIntegration = {
      _id: newRecordId(['integration', tenant.key, at, identifier], (id) => tx.integration(id) !== undefined),
      name,
      identifier,
      providerId,
      channel: channel as StoredIntegration['channel'],
      credentials: {},
      active,
      deleted: false,
      primary: false,
      priority: 0,
      conditions: Array.isArray(body.conditions) ? storedConditions(body.conditions as Record<string, unknown>[]) : [],
      createdAt: at,
    }
    if (isPlainObject(body.configurations)) record.configurations = storedConfigurations(body.configurations)
    if (active && CHANNELS_WITH_PRIMARY.has(channel)) {
      const placement = placeAmong(activePeers(tx.integrations(), channel), true)
      record.priority = placement.priority
      record.primary = placement.primary
      for (const peer of placement.changed) tx.putIntegration(peer)
    }
    tx.putIntegration(record)
    return presentIntegration(record, tenant)
  })
}

/** `<slug of name>-<7 to 14 of [0-9A-Za-z_-]>`, as the live service draws it. */
function defaultIdentifier(tx: TenantTransaction, tenantKey: string, name: string, at: string): string {
  const taken = new Set([...tx.integrations()].map((i) => i.identifier))
  for (let attempt = 0; ; attempt++) {
    const identifier = `${slugOf(name)}-${suffixOf(['identifier', tenantKey, name, at, attempt], 7, 14)}`
    if (!taken.has(identifier)) return identifier
  }
}

const isPlainObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)
