import { upsertSubscriberCredentials } from './credentials.ts'
import { listChannelConnections } from './channel-connections.ts'
import { setPrimaryIntegration } from './integrations.ts'
import { markMessagesAs } from './messages.ts'
import type { Handler } from './operation-context.ts'
import { getSubscriber } from './subscribers.ts'

type Operations = import('../contract/generated/openapi-types.ts').operations

/** The service's rules, keyed by the operationIds of spec/openapi.yaml (checked at start-up). */
export const handlers: Record<keyof Operations, Handler> = {
  upsertSubscriberCredentials,
  getSubscriber,
  setPrimaryIntegration,
  listChannelConnections,
  markMessagesAs,
}
