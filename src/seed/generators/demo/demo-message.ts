import type { StoredMessage } from '../../../store/records.ts'
import { NOTICE_KINDS, type Notice, type NoticeKind } from './demo-notifications.ts'
import { DAY_MS, iso, MINUTE_MS, msBetween, REFERENCE_MS, uuid, weightedPick } from './demo-random.ts'
import type { DemoPerson } from './demo-subscriber.ts'
import { idFor, RecordRandom } from '../seeded-faker.ts'

type Channel = StoredMessage['channel']
type ChannelSettings = NonNullable<DemoPerson['subscriber']['channels']>[number]

/** Messages were sent over the six weeks before the reference date. */
const WINDOW_MS = 42 * DAY_MS
const HOUR_MS = 60 * MINUTE_MS
const APP_URL = 'https://app.example.com'
const CHANNELS: readonly Channel[] = ['in_app', 'email', 'sms', 'push', 'chat']
const FAILURES: Partial<Record<Channel, Record<'error' | 'warning', [errorId: string, errorText: string]>>> = {
  email: {
    error: ['email-bounced', 'Mailbox unavailable: 550 5.1.1 user unknown'],
    warning: ['email-deferred', 'Delivery delayed: the receiving server deferred the message (421 4.7.0)'],
  },
  sms: {
    error: ['sms-undelivered', 'Carrier rejected the message (30007: message filtered)'],
    warning: ['sms-no-receipt', 'No delivery receipt from the carrier within 24 hours'],
  },
  push: {
    error: ['push-token-unregistered', 'The device token is no longer registered with the provider'],
    warning: ['push-throttled', 'The provider throttled the request; delivered after a retry'],
  },
}

/**
 * A message of `person`, on a channel the subscriber can be reached on, from a colleague of
 * theirs. Older messages are more likely seen and read; `read` always implies `seen`.
 */
export function makeDemoMessage(seed: number, index: number, person: DemoPerson, colleagues: readonly string[]): StoredMessage {
  const random = new RecordRandom(seed, 'demo-message', index)
  const reachable = reachableChannels(person)
  const kind = weightedPick(random, NOTICE_KINDS.filter((k) => k.channels.some((c) => reachable.has(c))))
  const channel = random.pick(kind.channels.filter((c) => reachable.has(c)))
  const sentAt = msBetween(random, REFERENCE_MS - WINDOW_MS, REFERENCE_MS - MINUTE_MS)
  const notice = kind.compose({ random, person, actor: colleagueOf(random, person, colleagues) })
  const message: StoredMessage = {
    _id: idFor('66d0', index),
    ...templateIds(kind, channel),
    _notificationId: idFor('66d1', index),
    _subscriberId: person.subscriber._id,
    templateIdentifier: kind.identifier,
    createdAt: iso(sentAt),
    deliveredAt: [iso(sentAt + random.int(300, 5_000))],
    transactionId: uuid(random),
    channel,
    ...readState(random, sentAt),
    ...shaped(channel, notice, person),
    cta: {},
    _feedId: null,
    status: 'sent',
    payload: notice.payload,
    overrides: {},
    contextKeys: random.chance(0.5) ? [`tenant:${person.company.slug}`] : [],
    ...recipientOf(channel, person),
  }
  if (channel === 'in_app') inboxExtras(random, message, notice, sentAt)
  else failure(random, message)
  return message
}

/** The inbox always; email, sms, push and chat where the subscriber has an address there. */
function reachableChannels({ subscriber }: DemoPerson): Set<Channel> {
  const reachable = new Set<Channel>(['in_app'])
  if (subscriber.email) reachable.add('email')
  if (subscriber.phone) reachable.add('sms')
  for (const settings of subscriber.channels ?? []) reachable.add(channelOf(settings))
  return reachable
}

/** Push credentials carry device tokens; chat ones a webhook. */
const channelOf = (settings: ChannelSettings): 'push' | 'chat' => (settings.credentials.deviceTokens ? 'push' : 'chat')

/** Someone else at the recipient's company, when there is anyone else. */
function colleagueOf(random: RecordRandom, { subscriber }: DemoPerson, colleagues: readonly string[]): string {
  const at = random.int(0, colleagues.length - 1)
  const self = `${subscriber.firstName} ${subscriber.lastName}`
  return colleagues[at] === self && colleagues.length > 1 ? colleagues[(at + 1) % colleagues.length]! : colleagues[at] ?? self
}

/** One workflow per kind, one step template per (kind, channel). */
function templateIds(kind: NoticeKind, channel: Channel): Pick<StoredMessage, '_templateId' | '_messageTemplateId'> {
  const kindIndex = NOTICE_KINDS.indexOf(kind)
  return { _templateId: idFor('66e0', kindIndex), _messageTemplateId: idFor('66e6', kindIndex * CHANNELS.length + CHANNELS.indexOf(channel)) }
}

function readState(random: RecordRandom, sentAt: number): Pick<StoredMessage, 'seen' | 'read' | 'lastSeenDate' | 'lastReadDate'> {
  const age = (REFERENCE_MS - sentAt) / WINDOW_MS
  const seen = random.chance(0.3 + 0.65 * age)
  const read = seen && random.chance(0.35 + 0.5 * age)
  if (!seen) return { seen, read }
  const seenAt = msBetween(random, sentAt + MINUTE_MS, Math.min(sentAt + 3 * DAY_MS, REFERENCE_MS))
  if (!read) return { seen, read, lastSeenDate: iso(seenAt) }
  return { seen, read, lastSeenDate: iso(seenAt), lastReadDate: iso(msBetween(random, seenAt, Math.min(seenAt + 30 * MINUTE_MS, REFERENCE_MS))) }
}

/** Subject and content as the channel carries them: blocks for email, plain text elsewhere, no subject by sms. */
function shaped(channel: Channel, notice: Notice, { subscriber, company }: DemoPerson): Partial<StoredMessage> {
  const url = APP_URL + notice.path
  switch (channel) {
    case 'email':
      return {
        subject: notice.subject,
        content: [
          { type: 'text', content: `Hi ${subscriber.firstName},`, styles: { textAlign: 'left' } },
          { type: 'text', content: notice.body, styles: { textAlign: 'left' } },
          { type: 'button', content: notice.action, url, styles: { textAlign: 'center' } },
          { type: 'text', content: `You received this email as a member of ${company.name}.`, styles: { textAlign: 'center' } },
        ],
      }
    case 'sms':
      return { content: notice.body }
    case 'push':
      return { subject: notice.subject, title: notice.subject, content: notice.body }
    case 'chat':
      return { subject: notice.subject, content: `*${notice.subject}*\n${notice.body}\n${url}` }
    default:
      return { subject: notice.subject, content: notice.body }
  }
}

/** The address the channel delivered to, and the provider that delivered it. */
function recipientOf(channel: Channel, { subscriber }: DemoPerson): Partial<StoredMessage> {
  // Only channels reachableChannels found are asked for, so the address is there.
  const settings = subscriber.channels?.find((s) => channelOf(s) === channel)
  switch (channel) {
    case 'email':
      // The primary integration delivers email and sms (interface: "the primary … is used to deliver").
      return { email: subscriber.email!, providerId: 'sendgrid' }
    case 'sms':
      return { phone: subscriber.phone!, providerId: 'twilio' }
    case 'push':
      return { deviceTokens: settings!.credentials.deviceTokens!, providerId: settings!.providerId }
    case 'chat':
      return { directWebhookUrl: settings!.credentials.webhookUrl!, providerId: settings!.providerId }
    default:
      return { providerId: 'novu' }
  }
}

/** The call to action, decision buttons answered once read, and now and then a snooze. */
function inboxExtras(random: RecordRandom, message: StoredMessage, notice: Notice, sentAt: number): void {
  message.cta = { type: 'redirect', data: { url: APP_URL + notice.path } }
  if (notice.buttons) {
    const answered = message.read && random.chance(0.6)
    message.cta.action = answered
      ? { status: 'done', buttons: [...notice.buttons], result: { type: random.pick(['primary', 'secondary'] as const), payload: {} } }
      : { status: 'pending', buttons: [...notice.buttons] }
  }
  const snoozedUntil = sentAt + random.int(1, 24) * HOUR_MS
  // Only snoozes that have ended: the seeded state stays before the reference date.
  if (random.chance(0.05) && snoozedUntil < REFERENCE_MS) {
    message.snoozedUntil = iso(snoozedUntil)
    message.deliveredAt = [...message.deliveredAt!, iso(snoozedUntil)]
  }
}

/** Now and then a bounce, a rejected text or a stale device token, where the channel can fail. */
function failure(random: RecordRandom, message: StoredMessage): void {
  const failures = FAILURES[message.channel]
  const roll = random.next()
  if (!failures || roll >= 0.07) return
  const status = roll < 0.04 ? 'error' : 'warning'
  const [errorId, errorText] = failures[status]
  Object.assign(message, { status, errorId, errorText })
}
