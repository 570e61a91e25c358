import type { Faker } from '@faker-js/faker'
import type { components } from '../../contract/generated/admin-types.ts'
import { idFor } from './seeded-faker.ts'

type StoredWorkflow = components['schemas']['StoredWorkflow']
type Step = StoredWorkflow['steps'][number]
type Metadata = NonNullable<Step['metadata']>

/** One of each metadata variant of the interface, so seeded workflows exercise them all. */
const METADATA: readonly Metadata[] = [
  { type: 'regular', amount: 5, unit: 'minutes', digestKey: 'postId', backoff: true, backoffAmount: 1, backoffUnit: 'minutes', updateMode: false },
  {
    type: 'timed',
    amount: 1,
    unit: 'days',
    digestKey: 'userId',
    timed: { atTime: '09:00', weekDays: ['monday', 'friday'], monthDays: ['1', '15'], ordinal: '1', ordinalValue: 'weekday', monthlyType: 'on' },
  },
  { type: 'regular', amount: 30, unit: 'seconds' },
  { type: 'scheduled', delayPath: 'payload.sendAt' },
]

/** A workflow template as a message carries it; `index` picks the metadata variants it shows. */
export function makeWorkflow(f: Faker, index: number): StoredWorkflow {
  const name = f.helpers.arrayElement(['Comment digest', 'Weekly report', 'Password reset', 'Order shipped'])
  const step = (n: number): Step => ({
    _id: idFor('65e1', index * 4 + n),
    uuid: f.string.uuid(),
    name: `${name} step ${n + 1}`,
    _templateId: idFor('65e2', index * 4 + n),
    active: true,
    shouldStopOnFail: false,
    template: { type: 'in_app', content: f.lorem.sentence() },
    filters: [{ isNegated: false, type: 'GROUP', value: 'AND', children: [{ field: 'plan', value: 'pro', operator: 'EQUAL', on: 'subscriber' }] }],
    metadata: METADATA[(index + n) % METADATA.length]!,
    replyCallback: { active: false },
  })
  const first = step(0)
  const { _id, ...variant } = step(1)
  return {
    _id: idFor('65e0', index),
    name,
    description: f.lorem.sentence(),
    active: true,
    draft: false,
    preferenceSettings: { email: true, sms: false, in_app: true, chat: false, push: true },
    critical: false,
    tags: [f.helpers.arrayElement(['billing', 'social', 'security'])],
    steps: [{ ...first, variants: [{ ...variant, _id: idFor('65e3', index) }] }, step(2)],
    _creatorId: idFor('65e4', 0),
    triggers: [{ type: 'event', identifier: name.toLowerCase().replace(/ /g, '-'), variables: [{ name: 'firstName' }], subscriberVariables: [{ name: 'email' }] }],
    _notificationGroupId: idFor('65e5', 0),
    deleted: false,
    // The interface requires these even for a workflow that is not deleted (docs/decisions.md).
    deletedAt: '',
    deletedBy: '',
    notificationGroup: { _id: idFor('65e5', 0), name: 'General' },
    data: { owner: 'growth' },
    workflowIntegrationStatus: { hasActiveIntegrations: true, hasPrimaryIntegrations: true },
  }
}
