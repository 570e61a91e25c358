import type { StoredIntegration, StoredSubscriber } from '../../../store/records.ts'
import type { Company } from './demo-vocabulary.ts'
import { chars, uuid } from './demo-random.ts'
import type { RecordRandom } from '../seeded-faker.ts'

type Credentials = NonNullable<StoredSubscriber['channels']>[number]['credentials']
type SubscriberProvider = NonNullable<StoredSubscriber['channels']>[number]['providerId']

/** How one chat or push provider's identifiers look, so generated ones resemble real ones. */
interface ProviderStyle {
  channel: 'chat' | 'push'
  /** Relative share among the providers of its channel. */
  weight: number
  /** A subscriber's credentials at the provider: a webhook for chat, device tokens for push. */
  credentials(random: RecordRandom, company: Company): Credentials
  workspaceId(random: RecordRandom, company: Company): string
  accessToken(random: RecordRandom): string
}

const STYLES: Partial<Record<SubscriberProvider, ProviderStyle>> = {
  slack: {
    channel: 'chat',
    weight: 4,
    credentials: (r) => {
      const [team, bot] = [r.alphanumeric(9, { upper: true, prefix: 'T' }), r.alphanumeric(10, { upper: true, prefix: 'B' })]
      return { webhookUrl: `https://hooks.slack.example.com/services/${team}/${bot}/${r.alphanumeric(24)}` }
    },
    workspaceId: (r) => r.alphanumeric(10, { upper: true, prefix: 'T' }),
    accessToken: (r) => `xoxb-${chars(r, 12, 'digits')}-${chars(r, 13, 'digits')}-${r.alphanumeric(24)}`,
  },
  msteams: {
    channel: 'chat',
    weight: 3,
    credentials: (r, company) => ({ webhookUrl: `https://${company.slug}.webhook.office.example.com/webhookb2/${uuid(r)}/IncomingWebhook/${chars(r, 32, 'hex')}` }),
    workspaceId: (r) => uuid(r),
    accessToken: (r) => `eyJ0eXAiOiJKV1QiLCJhbGciOiJSUzI1NiJ9.${r.alphanumeric(48)}`,
  },
  discord: {
    channel: 'chat',
    weight: 2,
    credentials: (r) => ({ webhookUrl: `https://discord.example.com/api/webhooks/${chars(r, 19, 'digits')}/${r.alphanumeric(68)}` }),
    workspaceId: (r) => chars(r, 19, 'digits'),
    accessToken: (r) => `${r.alphanumeric(26)}.${r.alphanumeric(6)}.${r.alphanumeric(38)}`,
  },
  mattermost: {
    channel: 'chat',
    weight: 1,
    credentials: (r, company) => ({ webhookUrl: `https://chat.${company.slug}.example/hooks/${chars(r, 26, 'lower')}`, channel: r.pick(['town-square', 'alerts', 'releases']) }),
    workspaceId: (r) => chars(r, 26, 'lower'),
    accessToken: (r) => chars(r, 26, 'lower'),
  },
  fcm: {
    channel: 'push',
    weight: 4,
    credentials: (r) => ({ deviceTokens: Array.from({ length: r.int(1, 2) }, () => `${r.alphanumeric(22)}:APA91b${r.alphanumeric(64)}`) }),
    workspaceId: (r, company) => `${company.slug}-app-${chars(r, 5, 'lower')}`,
    accessToken: (r) => `ya29.${r.alphanumeric(64)}`,
  },
  apns: {
    channel: 'push',
    weight: 1,
    credentials: (r) => ({ deviceTokens: [chars(r, 64, 'hex')] }),
    workspaceId: (_r, company) => `com.${company.slug}.ios`,
    accessToken: (r) => `eyJhbGciOiJFUzI1NiIsImtpZCI6IjEyMzQifQ.${r.alphanumeric(48)}`,
  },
  expo: {
    channel: 'push',
    weight: 2,
    credentials: (r) => ({ deviceTokens: [`ExponentPushToken[${r.alphanumeric(22)}]`] }),
    workspaceId: (_r, company) => `@${company.slug}/mobile`,
    accessToken: (r) => r.alphanumeric(40),
  },
  'one-signal': {
    channel: 'push',
    weight: 2,
    credentials: (r) => ({ deviceTokens: [uuid(r)] }),
    workspaceId: (r) => uuid(r),
    accessToken: (r) => `os_v2_app_${chars(r, 52, 'lower')}`,
  },
}

/** A chat or push provider of the data set, with the integration its records name. */
export interface DemoProvider extends ProviderStyle {
  providerId: SubscriberProvider
  integration: StoredIntegration
}

/** Every chat and push integration with a known style, as a provider records can name. */
export function demoProviders(integrations: readonly StoredIntegration[]): DemoProvider[] {
  return integrations.flatMap((integration) => {
    const providerId = integration.providerId as SubscriberProvider
    const style = STYLES[providerId]
    return style && style.channel === integration.channel ? [{ ...style, providerId, integration }] : []
  })
}
