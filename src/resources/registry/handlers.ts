import { upsertSubscriberCredentials } from '../subscribers/credentials.ts'
import { listChannelConnections } from '../connections/list-connections.ts'
import { setPrimaryIntegration } from '../integrations/set-primary.ts'
import { markMessagesAs } from '../messages/mark-as.ts'
import type { Handler } from '../operation-context.ts'
import { getSubscriber } from '../subscribers/subscribers.ts'

type Operations = import('../../contract/generated/openapi-types.ts').operations

/** The service's rules, keyed by the operationIds of spec/openapi.yaml (checked at start-up). */
export const handlers: Record<keyof Operations, Handler> = {
  upsertSubscriberCredentials,
  getSubscriber,
  setPrimaryIntegration,
  listChannelConnections,
  markMessagesAs,
}
