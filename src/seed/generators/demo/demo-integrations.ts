import type { StoredIntegration } from '../../../store/records.ts'
import { idFor } from '../seeded-faker.ts'

type Channel = StoredIntegration['channel']

interface DemoIntegration {
  name: string
  providerId: string
  channel: Channel
  active: boolean
  credentials: StoredIntegration['credentials']
  conditions?: StoredIntegration['conditions']
}

// New providers only: a second active `fcm` or `slack` integration, created later, would take
// over the credentials upsert that docs/behaviour.md §2.1 resolves to the well-known ones.
const INTEGRATIONS: readonly DemoIntegration[] = [
  {
    name: 'Postmark',
    providerId: 'postmark',
    channel: 'email',
    active: true,
    credentials: { apiKey: 'mock-postmark-server-token', from: 'notifications@example.com', senderName: 'Novu Mock' },
  },
  { name: 'Resend', providerId: 'resend', channel: 'email', active: false, credentials: { apiKey: 're_mock_resend_key', from: 'hello@example.com', senderName: 'Novu Mock' } },
  {
    name: 'Telnyx',
    providerId: 'telnyx',
    channel: 'sms',
    active: true,
    credentials: { apiKey: 'KEYmock-telnyx', messageProfileId: 'mock-profile', from: '+15550100010' },
    // Routes European subscribers' texts; a set-primary clears conditions, as §2.3 says.
    conditions: [
      {
        isNegated: false,
        type: 'GROUP',
        value: 'OR',
        children: [
          { field: 'locale', value: 'de-DE', operator: 'EQUAL', on: 'subscriber' },
          { field: 'locale', value: 'fr-FR', operator: 'EQUAL', on: 'subscriber' },
        ],
      },
    ],
  },
  { name: 'Amazon SNS', providerId: 'sns', channel: 'sms', active: false, credentials: { accessKey: 'AKIAMOCKSNS', secretKey: 'mock-sns-secret', region: 'us-east-1' } },
  { name: 'Expo Push', providerId: 'expo', channel: 'push', active: true, credentials: { apiKey: 'mock-expo-access-token' } },
  { name: 'OneSignal', providerId: 'one-signal', channel: 'push', active: true, credentials: { appSid: 'mock-onesignal-app', apiKey: 'mock-onesignal-key' } },
  { name: 'Discord', providerId: 'discord', channel: 'chat', active: true, credentials: {} },
  { name: 'Microsoft Teams', providerId: 'msteams', channel: 'chat', active: true, credentials: {} },
  { name: 'Mattermost', providerId: 'mattermost', channel: 'chat', active: true, credentials: {} },
]

const FIRST_CREATED_MS = Date.parse('2024-02-01T10:00:00.000Z')
const WEEK_MS = 7 * 24 * 60 * 60 * 1000

/**
 * The integrations demo mode adds to the nine well-known ones: none primary, so each channel keeps
 * the well-known primary. Active ones rank below the well-known active ones (priority 0, ties
 * broken by id as set-primary breaks them); inactive ones have 0 like the well-known inactive ones.
 */
export const DEMO_INTEGRATIONS: readonly StoredIntegration[] = INTEGRATIONS.map((integration, index) => ({
  _id: idFor('66a1', index),
  name: integration.name,
  identifier: integration.providerId,
  providerId: integration.providerId,
  channel: integration.channel,
  credentials: integration.credentials,
  configurations: { inboundWebhookEnabled: false },
  active: integration.active,
  deleted: false,
  primary: false,
  conditions: integration.conditions ?? [],
  priority: 0,
  createdAt: new Date(FIRST_CREATED_MS + index * WEEK_MS).toISOString(),
}))
