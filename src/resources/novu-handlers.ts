import { createConnection, deleteConnection, getConnection, updateConnection } from './connections/connection-resource.ts'
import { deleteIntegration, updateIntegration } from './integrations/change-integration.ts'
import { createIntegration } from './integrations/create-integration.ts'
import { listActiveIntegrations, listIntegrations } from './integrations/integration-lists.ts'
import { deleteMessage } from './messages/delete-message.ts'
import { listMessages } from './messages/list-messages.ts'
import { markAllMessages } from './messages/mark-all-messages.ts'
import type { Handler } from './operation-context.ts'

/**
 * Novu's operations that keep state, by Novu's operationId (spec/novu/novu-openapi.json). Each
 * one not named here is answered from the document and changes nothing (docs/behaviour.md §10);
 * making one stateful is adding its handler here. The five keep their own handlers (handlers.ts),
 * served on their paths whatever this map says.
 */
export const novuHandlers: Readonly<Record<string, Handler>> = {
  IntegrationsController_listIntegrations: listIntegrations as Handler,
  IntegrationsController_getActiveIntegrations: listActiveIntegrations as Handler,
  IntegrationsController_createIntegration: createIntegration as Handler,
  IntegrationsController_updateIntegrationById: updateIntegration as Handler,
  IntegrationsController_removeIntegration: deleteIntegration as Handler,
  ChannelConnectionsController_createChannelConnection: createConnection as Handler,
  ChannelConnectionsController_getChannelConnectionByIdentifier: getConnection as Handler,
  ChannelConnectionsController_updateChannelConnection: updateConnection as Handler,
  ChannelConnectionsController_deleteChannelConnection: deleteConnection as Handler,
  MessagesController_getMessages: listMessages as Handler,
  MessagesController_deleteMessage: deleteMessage as Handler,
  SubscribersV1Controller_markAllUnreadAsRead: markAllMessages as Handler,
}
