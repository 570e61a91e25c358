import { createConnection, deleteConnection, getConnection, updateConnection } from '../connections/connection-resource.ts'
import { deleteIntegration, updateIntegration } from '../integrations/change-integration.ts'
import { createIntegration } from '../integrations/create-integration.ts'
import { listActiveIntegrations, listIntegrations } from '../integrations/integration-lists.ts'
import { deleteMessage } from '../messages/delete-message.ts'
import { listMessages } from '../messages/list-messages.ts'
import { markAllMessages } from '../messages/mark-all-messages.ts'
import { deleteSubscriberCredentials, updateSubscriberChannel } from '../subscribers/credential-writes.ts'
import type { Handler } from '../operation-context.ts'
import { searchSubscribers } from '../subscribers/subscriber-search.ts'
import { bulkCreateSubscribers, createSubscriber, patchSubscriber, removeSubscriber } from '../subscribers/subscriber-writes.ts'
import { cancel, trigger, triggerBulk } from '../workflows/triggers.ts'
import { keepingWorkflow } from '../workflows/workflows.ts'

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
  SubscribersController_createSubscriber: createSubscriber,
  SubscribersV1Controller_bulkCreateSubscribers: bulkCreateSubscribers,
  SubscribersController_patchSubscriber: patchSubscriber,
  SubscribersController_removeSubscriber: removeSubscriber,
  SubscribersController_searchSubscribers: searchSubscribers,
  SubscribersV1Controller_updateSubscriberChannel: updateSubscriberChannel,
  SubscribersV1Controller_deleteSubscriberCredentials: deleteSubscriberCredentials,
  EventsController_trigger: trigger,
  EventsController_triggerBulk: triggerBulk,
  EventsController_cancel: cancel,
}

/** Operations answered from the document that keep something of the call first: each wraps the documented answer. */
export const novuKeepers: Readonly<Record<string, (documented: Handler) => Handler>> = {
  WorkflowController_create: keepingWorkflow,
}
