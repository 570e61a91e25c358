import { ApiError, generalProblem } from '../../answer/api-error.ts'
import type { StoredChannelConnection } from '../../store/records.ts'
import type { RecordsPort, TenantTransaction } from '../../store/store.ts'
import type { NovuInput } from '../novu-input.ts'
import type { OperationContext } from '../operation-context.ts'
import { presentConnection } from '../records/present.ts'
import { newRecordId, suffixOf } from '../records/record-ids.ts'
import { missing } from '../rule-broken.ts'

type Sent = {
  identifier?: string
  subscriberId?: string
  integrationIdentifier: string
  connectionMode?: 'subscriber' | 'shared'
  context?: Record<string, string | { id: string }>
  workspace: { id: string; name?: string }
  auth: { accessToken: string }
}
type Context<Body> = OperationContext<NovuInput<Body>, RecordsPort>

/** The contexts a connection may name (docs/behaviour.md §11). */
const MAX_CONTEXTS = 5

/** POST /v1/channel-connections (docs/behaviour.md §11): 201, channel and provider copied from the integration. */
export async function createConnection({ store, tenant, input, now }: Context<Sent>) {
  const body = input.body
  if (Object.keys(body.context ?? {}).length > MAX_CONTEXTS) throw generalProblem([`context must not have more than ${MAX_CONTEXTS} entries`])
  return store.transact(tenant.key, (tx) => {
    const at = now().toISOString()
    const integration = [...tx.integrations()].find((i) => !i.deleted && i.identifier === body.integrationIdentifier)
    if (!integration) throw missing('INTEGRATION_NOT_FOUND', `Integration not found: ${body.integrationIdentifier}`)
    // A shared connection belongs to a context, not a subscriber: its subscriberId is not stored.
    const subscriberId = body.connectionMode === 'shared' ? undefined : body.subscriberId || undefined
    if (subscriberId !== undefined && !tx.subscriber(subscriberId)) throw missing('SUBSCRIBER_NOT_FOUND', `Subscriber not found: ${subscriberId}`)
    const contextKeys = Object.entries(body.context ?? {}).map(([type, value]) => `${type}:${typeof value === 'string' ? value : value.id}`)
    refuseDuplicate(tx, integration.identifier, subscriberId, contextKeys)
    const identifier = body.identifier || defaultIdentifier(tx, tenant.key, at)
    if (tx.connectionByIdentifier(identifier)) {
      throw new ApiError(409, 'CONNECTION_EXISTS', `Channel connection with identifier "${identifier}" already exists in environment "${tenant.environmentId}"`)
    }
    const record: StoredChannelConnection = {
      // Unique as its identifier is, in the tenant, at this time.
      _id: newRecordId(['channelConnection', tenant.key, at, identifier], () => false),
      identifier,
      channel: integration.channel,
      providerId: integration.providerId as StoredChannelConnection['providerId'],
      integrationIdentifier: integration.identifier,
      subscriberId: subscriberId ?? null,
      contextKeys,
      workspace: workspaceOf(body.workspace),
      auth: { accessToken: body.auth.accessToken },
      createdAt: at,
      updatedAt: at,
    }
    tx.putConnection(record)
    return presentConnection(record)
  })
}

/** GET /v1/channel-connections/{identifier}. */
export async function getConnection({ store, tenant, input }: Context<undefined>) {
  const { identifier } = input.path as { identifier: string }
  return store.read(tenant.key, (view) => presentConnection(found(view.connectionByIdentifier(identifier), `Channel connection with identifier '${identifier}' not found`)))
}

/** PATCH /v1/channel-connections/{identifier}: `workspace` and `auth` replaced. */
export async function updateConnection({ store, tenant, input, now }: Context<Pick<Sent, 'workspace' | 'auth'>>) {
  const { identifier } = input.path as { identifier: string }
  return store.transact(tenant.key, (tx) => {
    const old = found(tx.connectionByIdentifier(identifier), `Channel connection with identifier "${identifier}" not found`)
    const next = { ...old, workspace: workspaceOf(input.body.workspace), auth: { accessToken: input.body.auth.accessToken }, updatedAt: now().toISOString() }
    tx.putConnection(next)
    return presentConnection(next)
  })
}

/** DELETE /v1/channel-connections/{identifier}: 204, a hard delete. */
export async function deleteConnection({ store, tenant, input }: Context<undefined>) {
  const { identifier } = input.path as { identifier: string }
  return store.transact(tenant.key, (tx) => {
    tx.deleteConnection(found(tx.connectionByIdentifier(identifier), `Channel connection with identifier '${identifier}' not found`)._id)
    return undefined
  })
}

function found(connection: StoredChannelConnection | undefined, message: string): StoredChannelConnection {
  if (!connection) throw missing('CONNECTION_NOT_FOUND', message)
  return connection
}

/** One connection per integration, subscriber (or none) and set of context keys, as the live service's create use case keeps it. */
function refuseDuplicate(tx: TenantTransaction, integrationIdentifier: string, subscriberId: string | undefined, contextKeys: readonly string[]): void {
  const criteria = subscriberId === undefined ? { connectionMode: 'shared' as const } : { subscriberId }
  const page = tx.connectionPage({ orderBy: 'createdAt', descending: true, limit: 1, includeCursor: false, criteria: { ...criteria, integrationIdentifier, contextKeys } })
  const existing = page.items[0]
  if (!existing) return
  const whose = subscriberId === undefined ? 'no subscriberId' : `subscriberId "${subscriberId}"`
  const context = contextKeys.length > 0 ? `context [${contextKeys.join(', ')}]` : 'no context'
  throw new ApiError(409, 'CONNECTION_DUPLICATE', `A channel connection already exists for integration "${integrationIdentifier}" with ${whose} and ${context}. Connection ID: ${existing.identifier}`)
}

/** The fields a workspace holds; others are accepted and dropped. */
const workspaceOf = ({ id, name }: Sent['workspace']) => (name === undefined ? { id } : { id, name })

/** `chconn_` and 12 of [0-9a-z], as the live service draws it. */
function defaultIdentifier(tx: TenantTransaction, tenantKey: string, at: string): string {
  for (let attempt = 0; ; attempt++) {
    const identifier = `chconn_${suffixOf(['connection', tenantKey, at, attempt], 12).toLowerCase().replace(/[^0-9a-z]/g, '0')}`
    if (!tx.connectionByIdentifier(identifier)) return identifier
  }
}
