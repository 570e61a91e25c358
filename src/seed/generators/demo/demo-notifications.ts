import type { StoredMessage } from '../../../store/records.ts'
import { chars } from './demo-random.ts'
import type { DemoPerson } from './demo-subscriber.ts'
import { CARRIERS, COMMENTS, DEPLOY_STEPS, DEVICES, DOCUMENTS, EXPENSES, MENTIONS, PROJECTS, SERVICES, TASKS, TEAMS } from './demo-vocabulary.ts'
import type { RecordRandom } from '../seeded-faker.ts'

type Channel = StoredMessage['channel']
type Button = NonNullable<NonNullable<StoredMessage['cta']['action']>['buttons']>[number]

export interface NoticeContext {
  random: RecordRandom
  /** The recipient. */
  person: DemoPerson
  /** A colleague's full name, for notices about something someone did. */
  actor: string
}

/** What one notification says, before a channel shapes it into a message. */
export interface Notice {
  subject: string
  body: string
  /** Label of the link or button that leads to `path`. */
  action: string
  /** Where the notice leads, under the app's address. */
  path: string
  payload: Record<string, unknown>
  /** Inbox action buttons, primary then secondary, for notices that ask for a decision. */
  buttons?: readonly [Button, Button]
}

/** A workflow of the demo app: its trigger identifier, the channels it sends on, and its text. */
export interface NoticeKind {
  identifier: string
  channels: readonly Channel[]
  /** Relative share among the kinds that can reach the recipient. */
  weight: number
  compose(context: NoticeContext): Notice
}

const slug = (text: string) => text.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '')
const dollars = (cents: number) => `$${(cents / 100).toFixed(2)}`
const decision = (accept: string, accepted: string, refuse: string, refused: string): [Button, Button] => [
  { type: 'primary', content: accept, resultContent: accepted },
  { type: 'secondary', content: refuse, resultContent: refused },
]

export const NOTICE_KINDS: readonly NoticeKind[] = [
  {
    identifier: 'new-comment',
    channels: ['in_app', 'email', 'push', 'chat'],
    weight: 6,
    compose: ({ random, actor }) => {
      const project = random.pick(PROJECTS)
      const commentId = chars(random, 8, 'hex')
      return {
        subject: `${actor} commented on ${project}`,
        body: `“${random.pick(COMMENTS)}”`,
        action: 'View comment',
        path: `/projects/${slug(project)}/comments/${commentId}`,
        payload: { actor, project, commentId },
      }
    },
  },
  {
    identifier: 'mention',
    channels: ['in_app', 'chat', 'push'],
    weight: 5,
    compose: ({ random, actor, person }) => {
      const document = random.pick(DOCUMENTS)
      return {
        subject: `${actor} mentioned you in ${document}`,
        body: `@${person.subscriber.firstName} ${random.pick(MENTIONS)}`,
        action: 'Open document',
        path: `/docs/${slug(document)}`,
        payload: { actor, document },
      }
    },
  },
  {
    identifier: 'task-assigned',
    channels: ['in_app', 'email', 'push'],
    weight: 5,
    compose: ({ random, actor }) => {
      const task = random.pick(TASKS)
      const dueInDays = random.int(1, 10)
      return {
        subject: `${actor} assigned you a task`,
        body: `“${task}” is due in ${dueInDays} days.`,
        action: 'Open task',
        path: `/tasks/${chars(random, 6, 'digits')}`,
        payload: { actor, task, dueInDays },
      }
    },
  },
  {
    identifier: 'team-invite',
    channels: ['in_app', 'email'],
    weight: 2,
    compose: ({ random, actor, person }) => {
      const team = random.pick(TEAMS)
      const buttons = decision('Accept', `You joined ${team}`, 'Decline', 'Invitation declined')
      return {
        subject: `${actor} invited you to the ${team} team`,
        body: `Join ${team} at ${person.company.name} to follow its projects and discussions.`,
        action: 'Accept invitation',
        path: `/invitations/${chars(random, 12, 'lower')}`,
        payload: { actor, team },
        buttons,
      }
    },
  },
  {
    identifier: 'expense-approval',
    channels: ['in_app', 'email'],
    weight: 2,
    compose: ({ random, actor }) => {
      const amountCents = random.int(2_500, 250_000)
      const buttons = decision('Approve', 'Approved', 'Reject', 'Rejected')
      return {
        subject: `Expense report from ${actor} needs your approval`,
        body: `${actor} submitted ${dollars(amountCents)} for ${random.pick(EXPENSES)}.`,
        action: 'Review expense',
        path: `/expenses/${chars(random, 5, 'digits')}`,
        payload: { actor, amountCents },
        buttons,
      }
    },
  },
  {
    identifier: 'weekly-digest',
    channels: ['email', 'in_app'],
    weight: 3,
    compose: ({ random }) => {
      const project = random.pick(PROJECTS)
      const body = `${random.int(3, 40)} tasks completed, ${random.int(0, 25)} new comments and ${random.int(0, 12)} pull requests merged this week.`
      return { subject: `Your weekly summary for ${project}`, body, action: 'See the summary', path: `/projects/${slug(project)}/summary`, payload: { project } }
    },
  },
  {
    identifier: 'security-alert',
    channels: ['email', 'push', 'sms'],
    weight: 2,
    compose: ({ random, person }) => {
      const device = random.pick(DEVICES)
      const body = `We noticed a sign-in from ${device} near ${person.city}. If this wasn't you, reset your password.`
      return { subject: `New sign-in to your ${person.company.name} account`, body, action: 'Review activity', path: '/settings/security', payload: { device, city: person.city } }
    },
  },
  {
    identifier: 'verification-code',
    channels: ['sms', 'email'],
    weight: 2,
    compose: ({ random, person }) => {
      const code = chars(random, 6, 'digits')
      return {
        subject: `Your ${person.company.name} verification code`,
        body: `${code} is your ${person.company.name} verification code. It expires in 10 minutes.`,
        action: 'Verify',
        path: '/verify',
        payload: { code },
      }
    },
  },
  {
    identifier: 'password-reset',
    channels: ['email'],
    weight: 1,
    compose: ({ random, person }) => ({
      subject: 'Reset your password',
      body: `We received a request to reset the password for ${person.subscriber.email}. The link is valid for 30 minutes.`,
      action: 'Reset password',
      path: `/reset-password/${chars(random, 24, 'lower')}`,
      payload: {},
    }),
  },
  {
    identifier: 'deploy-finished',
    channels: ['chat', 'in_app'],
    weight: 3,
    compose: ({ random, actor }) => {
      const service = random.pick(SERVICES)
      const version = `v${random.int(1, 4)}.${random.int(0, 30)}.${random.int(0, 9)}`
      const succeeded = random.chance(0.85)
      const body = succeeded
        ? `${actor} deployed ${service} ${version} to production in ${random.int(2, 14)}m ${random.int(0, 59)}s.`
        : `The ${random.pick(DEPLOY_STEPS)} step failed while ${actor} was deploying ${service} ${version} to production.`
      const subject = `Deploy of ${service} ${version} ${succeeded ? 'succeeded' : 'failed'}`
      const path = `/services/${service}/deploys/${chars(random, 4, 'digits')}`
      return { subject, body, action: 'View deploy', path, payload: { actor, service, version, succeeded } }
    },
  },
  {
    identifier: 'payment-failed',
    channels: ['email', 'in_app', 'sms'],
    weight: 1,
    compose: ({ random, person }) => {
      const invoice = `INV-${chars(random, 6, 'digits')}`
      const charge = `We couldn't charge the card ending in ${chars(random, 4, 'digits')} for ${dollars(random.int(900, 49_900))}.`
      const body = `${charge} Update your billing details to keep ${person.company.name} running.`
      return { subject: `Payment failed for invoice ${invoice}`, body, action: 'Update billing', path: '/settings/billing', payload: { invoice } }
    },
  },
  {
    identifier: 'order-shipped',
    channels: ['email', 'sms', 'push'],
    weight: 2,
    compose: ({ random }) => {
      const order = chars(random, 6, 'digits')
      const carrier = random.pick(CARRIERS)
      const arrivesInDays = random.int(2, 6)
      return {
        subject: `Your order #${order} has shipped`,
        body: `It is on its way with ${carrier} and should arrive in ${arrivesInDays} days.`,
        action: 'Track package',
        path: `/orders/${order}`,
        payload: { order, carrier, arrivesInDays },
      }
    },
  },
]
