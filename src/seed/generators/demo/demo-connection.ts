import type { StoredChannelConnection } from '../../../store/records.ts'
import type { DemoProvider } from './demo-providers.ts'
import { iso, msBetween, REFERENCE_MS, weightedPick } from './demo-random.ts'
import type { DemoPerson } from './demo-subscriber.ts'
import { isSharedConnection } from '../channel-connection.ts'
import { idFor, RecordRandom } from '../seeded-faker.ts'

/** Share of connections at one of the subscriber's own providers, when it has any. */
const OWN_PROVIDER_SHARE = 0.7

/**
 * Connections of the demo subscribers at the chat and push providers that have an integration.
 * The first ones belong to the well-known subscribers (`wellKnown` of them lead `persons`).
 */
export function demoConnectionMaker(seed: number, persons: readonly DemoPerson[], wellKnown: number, providers: readonly DemoProvider[]): (index: number) => StoredChannelConnection {
  const owners = persons.length > wellKnown ? persons.slice(wellKnown) : persons
  // Shared between records, as in the default seed: a write replaces a record, never edits it.
  const contexts = new Map<string, string[]>()
  const context = (...keys: string[]) => {
    const known = contexts.get(keys.join())
    if (known) return known
    contexts.set(keys.join(), keys)
    return keys
  }
  return (index) => {
    const random = new RecordRandom(seed, 'demo-channel-connection', index)
    const person = index < wellKnown && index < persons.length ? persons[index]! : random.pick(owners)
    const provider = providerFor(random, person, providers)
    const createdAt = msBetween(random, Date.parse(person.subscriber.createdAt), REFERENCE_MS)
    const workspaceId = provider.workspaceId(random, person.company)
    const roll = random.next()
    const tenant = `tenant:${person.company.slug}`
    return {
      _id: idFor('66c0', index),
      identifier: `${provider.providerId}-${person.company.slug}-${index + 1}`,
      channel: provider.channel,
      providerId: provider.providerId,
      integrationIdentifier: provider.integration.identifier,
      subscriberId: isSharedConnection(index) ? null : person.subscriber.subscriberId,
      contextKeys: roll < 0.2 ? context() : roll < 0.7 ? context(tenant) : context(tenant, `region:${person.region}`),
      workspace: random.chance(0.85) ? { id: workspaceId, name: person.company.name } : { id: workspaceId },
      auth: { accessToken: provider.accessToken(random) },
      createdAt: iso(createdAt),
      updatedAt: iso(msBetween(random, createdAt, REFERENCE_MS)),
    }
  }
}

/** Mostly a provider the subscriber already has credentials at; otherwise any, by share. */
function providerFor(random: RecordRandom, person: DemoPerson, providers: readonly DemoProvider[]): DemoProvider {
  const own = person.subscriber.channels ?? []
  if (own.length > 0 && random.chance(OWN_PROVIDER_SHARE)) {
    const providerId = random.pick(own).providerId
    const found = providers.find((provider) => provider.providerId === providerId)
    if (found) return found
  }
  return weightedPick(random, providers)
}
