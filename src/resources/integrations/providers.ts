/**
 * The providers' display names and channels, as Novu's provider list names them (novuhq/novu
 * `packages/shared/src/consts/providers/channels/`): a created integration's default `name` and
 * `channel` (docs/behaviour.md §11).
 */
const PROVIDERS: Readonly<Record<string, readonly [name: string, channel: string]>> = {
  'novu-email': ['Novu Email', 'email'],
  mailgun: ['Mailgun', 'email'],
  mailjet: ['Mailjet', 'email'],
  mailtrap: ['Mailtrap', 'email'],
  mandrill: ['Mandrill', 'email'],
  postmark: ['Postmark', 'email'],
  sendgrid: ['SendGrid', 'email'],
  sendinblue: ['Sendinblue', 'email'],
  ses: ['SES', 'email'],
  netcore: ['Netcore', 'email'],
  nodemailer: ['Custom SMTP', 'email'],
  mailersend: ['MailerSend', 'email'],
  outlook365: ['Microsoft Outlook365', 'email'],
  'infobip-email': ['Infobip', 'email'],
  braze: ['Braze', 'email'],
  resend: ['Resend', 'email'],
  plunk: ['Plunk', 'email'],
  sparkpost: ['SparkPost', 'email'],
  'email-webhook': ['Email Webhook', 'email'],
  'novu-sms': ['Novu SMS', 'sms'],
  nexmo: ['Nexmo', 'sms'],
  plivo: ['Plivo', 'sms'],
  sms77: ['sms77', 'sms'],
  sns: ['SNS', 'sms'],
  telnyx: ['Telnyx', 'sms'],
  messagebird: ['MessageBird', 'sms'],
  twilio: ['Twilio', 'sms'],
  gupshup: ['Gupshup', 'sms'],
  firetext: ['Firetext', 'sms'],
  'infobip-sms': ['Infobip', 'sms'],
  'burst-sms': ['BurstSMS', 'sms'],
  'bulk-sms': ['BulkSMS', 'sms'],
  'isend-sms': ['iSend SMS', 'sms'],
  clickatell: ['clickatell', 'sms'],
  'forty-six-elks': ['46elks', 'sms'],
  kannel: ['Kannel SMS', 'sms'],
  maqsam: ['Maqsam', 'sms'],
  'sms-central': ['SMS Central', 'sms'],
  termii: ['Termii', 'sms'],
  'africas-talking': ["Africa's Talking", 'sms'],
  sendchamp: ['Sendchamp', 'sms'],
  'generic-sms': ['Generic SMS', 'sms'],
  clicksend: ['Clicksend', 'sms'],
  simpletexting: ['SimpleTexting', 'sms'],
  bandwidth: ['Bandwidth', 'sms'],
  'azure-sms': ['Azure Sms', 'sms'],
  'ring-central': ['RingCentral', 'sms'],
  'brevo-sms': ['Brevo', 'sms'],
  'eazy-sms': ['Eazy', 'sms'],
  mobishastra: ['Mobishastra', 'sms'],
  fcm: ['Firebase Cloud Messaging', 'push'],
  apns: ['APNS', 'push'],
  expo: ['Expo Push', 'push'],
  'one-signal': ['OneSignal', 'push'],
  pushpad: ['Pushpad', 'push'],
  'push-webhook': ['Push Webhook', 'push'],
  'pusher-beams': ['Pusher Beams', 'push'],
  slack: ['Slack', 'chat'],
  discord: ['Discord', 'chat'],
  msteams: ['MSTeams', 'chat'],
  mattermost: ['Mattermost', 'chat'],
  ryver: ['Ryver', 'chat'],
  zulip: ['Zulip', 'chat'],
  'grafana-on-call': ['Grafana On Call Webhook', 'chat'],
  getstream: ['GetStream', 'chat'],
  'rocket-chat': ['Rocket.Chat', 'chat'],
  'whatsapp-business': ['WhatsApp Business', 'chat'],
  novu: ['Novu Inbox', 'in_app'],
}

export interface ProviderDefaults {
  name: string
  channel: string | undefined
}

/** A provider the list does not name is its own name, and has no channel of its own. */
export function providerDefaults(providerId: string): ProviderDefaults {
  const known = Object.hasOwn(PROVIDERS, providerId) ? PROVIDERS[providerId] : undefined
  return known ? { name: known[0], channel: known[1] } : { name: providerId, channel: undefined }
}
