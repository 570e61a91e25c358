import type { TenantState } from '../../store/records.ts'
import { demoConnectionMaker } from './demo/demo-connection.ts'
import { DEMO_INTEGRATIONS } from './demo/demo-integrations.ts'
import { makeDemoMessage } from './demo/demo-message.ts'
import { demoProviders } from './demo/demo-providers.ts'
import { makeDemoSubscriber, wellKnownPerson, type DemoPerson } from './demo/demo-subscriber.ts'
import { DEMO_MESSAGES_PER_SUBSCRIBER, type WellKnownRecords } from '../seed-options.ts'
import type { SeedSpec } from '../../store/store.ts'
import { progressCounter, type SeedProgress } from '../progress-counter.ts'


/**
 * The demo data set (`--demo`): the well-known records unchanged, more integrations, and
 * generated subscribers, connections and messages that read like a real product's. Each record
 * comes from its own random source (seed, type, index), like the default seed's.
 */
export function demoState(options: SeedSpec, wellKnown: WellKnownRecords, onProgress?: SeedProgress): TenantState {
  const integrations = [...wellKnown.integrations, ...DEMO_INTEGRATIONS]
  const providers = demoProviders(integrations)
  const generated = Math.max(0, options.subscribers - wellKnown.subscribers.length)
  const messageTotal = options.messages ?? wellKnown.messages.length + DEMO_MESSAGES_PER_SUBSCRIBER * generated
  const made = progressCounter(onProgress, generated + options.channelConnections + Math.max(0, messageTotal - wellKnown.messages.length))
  const persons = wellKnown.subscribers.map(wellKnownPerson)
  for (let i = persons.length; i < options.subscribers; i++, made()) persons.push(makeDemoSubscriber(options.seed, i, providers))
  withUniqueEmails(persons)
  const makeConnection = demoConnectionMaker(options.seed, persons, wellKnown.subscribers.length, providers)
  const channelConnections = Array.from({ length: options.channelConnections }, (_, i) => {
    made()
    return makeConnection(i)
  })
  const messages = [...wellKnown.messages]
  const owners = persons.length > wellKnown.subscribers.length ? persons.slice(wellKnown.subscribers.length) : persons
  const colleagues = colleaguesByCompany(persons)
  for (let i = 0; messages.length < messageTotal; i++, made()) {
    // Each generated subscriber gets its share in turn, as in the default seed.
    const owner = owners[Math.floor(i / DEMO_MESSAGES_PER_SUBSCRIBER) % owners.length]!
    messages.push(makeDemoMessage(options.seed, i, owner, colleagues.get(owner.company.slug)!))
  }
  onProgress?.(made.count, made.count)
  return { subscribers: persons.map((person) => person.subscriber), integrations, channelConnections, messages }
}

/**
 * Two people of the same name at the same company would share an address: later ones get a
 * number, `anna.mueller2@…`. Earlier records never change, so adding subscribers reshuffles none.
 */
function withUniqueEmails(persons: DemoPerson[]): void {
  const taken = new Set<string>()
  for (const person of persons) {
    const { email } = person.subscriber
    if (!email) continue
    const at = email.indexOf('@')
    let unique = email
    for (let n = 2; taken.has(unique); n++) unique = `${email.slice(0, at)}${n}${email.slice(at)}`
    taken.add(unique)
    if (unique !== email) person.subscriber = { ...person.subscriber, email: unique }
  }
}

/** Full names of each company's subscribers: the actors of the messages their colleagues get. */
function colleaguesByCompany(persons: readonly DemoPerson[]): Map<string, string[]> {
  const names = new Map<string, string[]>()
  for (const { subscriber, company } of persons) {
    let list = names.get(company.slug)
    if (!list) names.set(company.slug, (list = []))
    list.push(`${subscriber.firstName} ${subscriber.lastName}`)
  }
  return names
}
