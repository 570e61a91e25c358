import type { Faker } from '@faker-js/faker'
import type { StoredMessage } from '../../store/records.ts'
import { fakerFor, idFor, pastDate } from './seeded-faker.ts'
import { makeWorkflow } from './workflow.ts'

type Channel = StoredMessage['channel']
const CHANNELS: readonly Channel[] = ['in_app', 'in_app', 'in_app', 'email', 'sms', 'push', 'chat']

/** A generated message of `subscriberObjectId`; together they exercise the whole Message schema. */
export function makeMessage(seed: number, index: number, subscriberObjectId: string): StoredMessage {
  const f = fakerFor(seed, 'message', index)
  const channel = CHANNELS[index % CHANNELS.length]!
  const createdAt = pastDate(f)
  const seen = f.datatype.boolean()
  const read = seen && f.datatype.boolean()
  const status = f.helpers.weightedArrayElement([
    { weight: 8, value: 'sent' as const },
    { weight: 1, value: 'error' as const },
    { weight: 1, value: 'warning' as const },
  ])
  const message: StoredMessage = {
    _id: idFor('65d0', index),
    _templateId: idFor('65e0', index % 7),
    _messageTemplateId: idFor('65e6', index % 7),
    _notificationId: idFor('65d1', index),
    _subscriberId: subscriberObjectId,
    templateIdentifier: f.helpers.arrayElement(['comment-digest', 'weekly-report', 'order-shipped']),
    createdAt,
    deliveredAt: [pastDate(f, createdAt)],
    content: channel === 'email' ? emailBlocks(f) : f.lorem.sentence(),
    transactionId: f.string.uuid(),
    subject: f.lorem.words(4),
    channel,
    read,
    seen,
    cta: ctaFor(f, channel),
    _feedId: null,
    status,
    payload: { orderId: f.string.alphanumeric(8), amount: f.number.int({ min: 1, max: 500 }) },
    overrides: {},
    contextKeys: index % 4 === 0 ? ['tenant:acme'] : [],
    ...channelFields(f, channel),
  }
  if (seen) message.lastSeenDate = pastDate(f, createdAt)
  if (read) message.lastReadDate = pastDate(f, createdAt)
  if (status !== 'sent') Object.assign(message, { errorId: `${status}-${index}`, errorText: f.lorem.sentence() })
  if (index % 3 === 0) message.template = makeWorkflow(f, index)
  if (index % 11 === 0) message.snoozedUntil = pastDate(f, createdAt)
  return message
}

function emailBlocks(f: Faker): NonNullable<StoredMessage['content']> {
  return [
    { type: 'text', content: f.lorem.paragraph(), styles: { textAlign: 'left' } },
    { type: 'button', content: 'Open', url: f.internet.url() },
  ]
}

function ctaFor(f: Faker, channel: Channel): StoredMessage['cta'] {
  if (channel !== 'in_app') return {}
  return {
    type: 'redirect',
    data: { url: f.internet.url() },
    action: {
      status: f.helpers.arrayElement(['pending', 'done'] as const),
      buttons: [
        { type: 'primary', content: 'Accept', resultContent: 'Accepted' },
        { type: 'secondary', content: 'Dismiss' },
      ],
      result: { type: 'primary', payload: { source: 'inbox' } },
    },
  }
}

function channelFields(f: Faker, channel: Channel): Partial<StoredMessage> {
  switch (channel) {
    case 'email':
      return { email: f.internet.email({ provider: 'example.com' }).toLowerCase(), providerId: 'sendgrid' }
    case 'sms':
      return { phone: f.phone.number({ style: 'international' }), providerId: 'twilio' }
    case 'push':
      return { deviceTokens: [f.string.alphanumeric(32)], providerId: 'fcm', title: f.lorem.words(3) }
    case 'chat':
      return { directWebhookUrl: f.internet.url(), providerId: 'slack' }
    default:
      return { providerId: 'novu' }
  }
}
