import type { StoredSubscriber } from '../../store/records.ts'
import { fakerFor, idFor, pastDate } from './seeded-faker.ts'

const LOCALES = ['en-US', 'en-GB', 'de-DE', 'fr-FR', 'es-ES', 'pt-BR', 'ja-JP']

export function subscriberId(index: number): string {
  return `subscriber-${String(index + 1).padStart(4, '0')}`
}

/** A generated subscriber, without channels: credentials arrive through the API. */
export function makeSubscriber(seed: number, index: number): StoredSubscriber {
  const f = fakerFor(seed, 'subscriber', index)
  const firstName = f.person.firstName()
  const lastName = f.person.lastName()
  const createdAt = pastDate(f)
  return {
    _id: idFor('65a0', index),
    subscriberId: subscriberId(index),
    firstName,
    lastName,
    email: f.internet.email({ firstName, lastName, provider: 'example.com' }).toLowerCase(),
    phone: f.helpers.maybe(() => f.phone.number({ style: 'international' }), { probability: 0.7 }) ?? null,
    avatar: f.image.avatar(),
    locale: f.helpers.arrayElement(LOCALES),
    timezone: f.location.timeZone(),
    channels: [],
    topics: [],
    isOnline: f.datatype.boolean(),
    lastOnlineAt: pastDate(f, createdAt),
    __v: 0,
    data: f.helpers.maybe(() => ({ plan: f.helpers.arrayElement(['free', 'pro', 'enterprise']) }), { probability: 0.5 }) ?? null,
    deleted: false,
    createdAt,
    updatedAt: pastDate(f, createdAt),
  }
}
