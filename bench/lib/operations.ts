/** The five operations as the benches call them: every call of a write really writes. */
const MESSAGE_IDS = Array.from({ length: 10 }, (_, i) => `64f2000000000000000000${String(i + 1).padStart(2, '0')}`)
export interface Operation {
  name: string
  method: 'GET' | 'POST' | 'PATCH'
  /** Prefix the ceiling server routes on. */
  prefix: string
  path(n: number): string
  body?(n: number): unknown
}
export const OPERATIONS: Operation[] = [
  {
    // A new webhook URL per request: every call really writes, and the subscriber keeps its size
    // (appending a new device token per call would grow the answer without bound).
    name: 'upsertSubscriberCredentials',
    method: 'PATCH',
    prefix: '/v1/subscribers/demo-subscriber-1/credentials',
    path: () => '/v1/subscribers/demo-subscriber-1/credentials',
    body: (n) => ({ providerId: 'slack', credentials: { webhookUrl: `https://hooks.slack.example.com/services/bench/${n}` } }),
  },
  { name: 'getSubscriber', method: 'GET', prefix: '/v2/subscribers/', path: () => '/v2/subscribers/demo-subscriber-1' },
  {
    // Alternates the primary email integration: every call changes it.
    name: 'setPrimaryIntegration',
    method: 'POST',
    prefix: '/v1/integrations/',
    path: (n) => `/v1/integrations/64f10000000000000000000${n % 2 === 0 ? 2 : 1}/set-primary`,
  },
  { name: 'listChannelConnections', method: 'GET', prefix: '/v1/channel-connections', path: () => '/v1/channel-connections?limit=10' },
  {
    // Each of the 10 messages flips between read and unread on every call that names it.
    name: 'markMessagesAs',
    method: 'POST',
    prefix: '/v1/subscribers/demo-subscriber-1/messages/mark-as',
    path: () => '/v1/subscribers/demo-subscriber-1/messages/mark-as',
    body: (n) => ({ messageId: MESSAGE_IDS[n % 10], markAs: Math.floor(n / 10) % 2 === 0 ? 'read' : 'unread' }),
  },
]
export const WRITE_OPERATIONS = OPERATIONS.filter((op) => op.method !== 'GET')
