/** One documented call that `verify` sends, and the statuses the contract allows for it. */
export interface Probe {
  name: string
  operationId: string
  method: 'GET' | 'POST' | 'PATCH'
  path: string
  body?: unknown
  expect: readonly number[]
  /** Changes the target's state: sent only with --write. */
  writes?: boolean
  /** Why it is not sent (an id it needs was not given): reported, never silently left out. */
  skipped?: string
}

export interface ProbeTargets {
  subscriberId: string
  integrationId?: string | undefined
  messageId?: string | undefined
  /** Set as primary again after the set-primary probe, to undo it. */
  restorePrimaryId?: string | undefined
}

const UNKNOWN_SUBSCRIBER = 'novu-mock-verify-unknown-subscriber'
const enc = encodeURIComponent

/** The calls that change nothing: successes of the reads and the documented errors of every operation. */
export function readProbes(targets: ProbeTargets): Probe[] {
  const subscriber = enc(targets.subscriberId)
  return [
    { name: 'retrieve a subscriber', operationId: 'getSubscriber', method: 'GET', path: `/v2/subscribers/${subscriber}`, expect: [200] },
    { name: 'retrieve an unknown subscriber', operationId: 'getSubscriber', method: 'GET', path: `/v2/subscribers/${UNKNOWN_SUBSCRIBER}`, expect: [404] },
    { name: 'list channel connections', operationId: 'listChannelConnections', method: 'GET', path: '/v1/channel-connections?limit=2', expect: [200] },
    { name: 'list with both cursors', operationId: 'listChannelConnections', method: 'GET', path: '/v1/channel-connections?after=a&before=b', expect: [400, 422] },
    { name: 'list with limit 0', operationId: 'listChannelConnections', method: 'GET', path: '/v1/channel-connections?limit=0', expect: [400, 422] },
    {
      name: 'upsert credentials of an unknown subscriber',
      operationId: 'upsertSubscriberCredentials',
      method: 'PATCH',
      path: `/v1/subscribers/${UNKNOWN_SUBSCRIBER}/credentials`,
      body: { providerId: 'fcm', credentials: { deviceTokens: [] } },
      expect: [400, 404],
    },
    {
      name: 'mark messages of an unknown subscriber',
      operationId: 'markMessagesAs',
      method: 'POST',
      path: `/v1/subscribers/${UNKNOWN_SUBSCRIBER}/messages/mark-as`,
      body: { messageId: ['000000000000000000000000'], markAs: 'read' },
      expect: [404],
    },
    { name: 'set primary with a malformed id', operationId: 'setPrimaryIntegration', method: 'POST', path: '/v1/integrations/not-a-mongo-id/set-primary', expect: [400, 422] },
  ]
}

/**
 * The calls that write, only to the ids given, undone where the API allows. A call whose id was
 * not given is there too, `skipped` with the flag that would send it, so the report says so.
 */
export function writeProbes(targets: ProbeTargets, currentCredentials: unknown): Probe[] {
  const subscriber = enc(targets.subscriberId)
  const integration = targets.integrationId ?? '{integrationId}'
  const restore = targets.restorePrimaryId ?? '{integrationId}'
  const message = targets.messageId ?? '000000000000000000000000'
  const skippedUnless = (given: unknown, why: string) => (given === undefined ? { skipped: why } : {})
  return [
    // The subscriber's own first channel sent back as it is: a write that changes nothing.
    { name: 'upsert the same credentials', operationId: 'upsertSubscriberCredentials', method: 'PATCH', path: `/v1/subscribers/${subscriber}/credentials`, body: currentCredentials, expect: [200], writes: true, ...skippedUnless(currentCredentials, 'the subscriber probe found no channel to send back') },
    { name: 'set an integration as primary', operationId: 'setPrimaryIntegration', method: 'POST', path: `/v1/integrations/${enc(integration)}/set-primary`, expect: [200], writes: true, ...skippedUnless(targets.integrationId, 'give --integration <id>') },
    { name: 'put the previous primary back', operationId: 'setPrimaryIntegration', method: 'POST', path: `/v1/integrations/${enc(restore)}/set-primary`, expect: [200], writes: true, ...skippedUnless(targets.restorePrimaryId, 'give --restore-primary <id>') },
    { name: 'mark a message seen', operationId: 'markMessagesAs', method: 'POST', path: `/v1/subscribers/${subscriber}/messages/mark-as`, body: { messageId: [message], markAs: 'seen' }, expect: [201], writes: true, ...skippedUnless(targets.messageId, 'give --message <id>') },
  ]
}
