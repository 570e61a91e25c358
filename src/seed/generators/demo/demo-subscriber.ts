import type { StoredSubscriber } from '../../../store/records.ts'
import { LOCALE_PROFILES, type Region } from './demo-locales.ts'
import type { DemoProvider } from './demo-providers.ts'
import { DAY_MS, fillDigits, iso, MINUTE_MS, msBetween, REFERENCE_MS, weightedPick } from './demo-random.ts'
import { COMPANIES, JOB_TITLES, PLANS, type Company } from './demo-vocabulary.ts'
import { idFor, RecordRandom } from '../seeded-faker.ts'
import { subscriberId } from '../subscriber.ts'

type ChannelSettings = NonNullable<StoredSubscriber['channels']>[number]

/** A subscriber with what the other demo records derive from it: employer, data region and city. */
export interface DemoPerson {
  subscriber: StoredSubscriber
  company: Company
  region: Region
  city: string
}

const SIGNUPS_FROM = Date.parse('2023-01-01T00:00:00.000Z')
const SIGNUPS_TO = Date.parse('2024-10-31T00:00:00.000Z')
const PERSONAL_MAIL_DOMAINS = ['example.com', 'example.net', 'example.org']
/** Share of subscribers with a push device, and with a chat webhook. */
const CHANNEL_SHARES = [
  ['push', 0.55],
  ['chat', 0.35],
] as const

/** A generated demo subscriber: name, locale, timezone and phone from one locale profile. */
export function makeDemoSubscriber(seed: number, index: number, providers: readonly DemoProvider[]): DemoPerson {
  const random = new RecordRandom(seed, 'demo-subscriber', index)
  const profile = weightedPick(random, LOCALE_PROFILES)
  const place = random.pick(profile.places)
  const sex = random.chance(0.5) ? 'female' : 'male'
  const firstName = random.pick(profile.names[sex])
  const lastName = random.pick(profile.names.family)
  const company = random.pick(COMPANIES)
  const createdAt = msBetween(random, SIGNUPS_FROM, SIGNUPS_TO)
  const isOnline = random.chance(0.15)
  const subscriber: StoredSubscriber = {
    _id: idFor('66a0', index),
    subscriberId: subscriberId(index),
    firstName,
    lastName,
    email: emailOf(random, firstName, lastName, company),
    phone: random.chance(0.75) ? fillDigits(random, place.phone) : null,
    avatar: portraitUrl(sex, random.int(0, 99)),
    locale: profile.locale,
    timezone: place.timezone,
    channels: channelsOf(random, company, providers),
    topics: [],
    isOnline,
    // Online now means seen in the last half hour; the others within the last two weeks.
    lastOnlineAt: iso(msBetween(random, REFERENCE_MS - (isOnline ? 30 * MINUTE_MS : 14 * DAY_MS), REFERENCE_MS)),
    __v: 0,
    data: { company: company.name, plan: random.pick(PLANS), jobTitle: random.pick(JOB_TITLES) },
    deleted: false,
    createdAt: iso(createdAt),
    updatedAt: iso(msBetween(random, createdAt, REFERENCE_MS)),
  }
  return { subscriber, company, region: profile.region, city: place.city }
}

/** A well-known subscriber as the demo sees it: at Acme, where its timezone says. */
export function wellKnownPerson(subscriber: StoredSubscriber): DemoPerson {
  const timezone = subscriber.timezone ?? 'America/New_York'
  const city = timezone.slice(timezone.lastIndexOf('/') + 1).replace(/_/g, ' ')
  return { subscriber, company: COMPANIES[0]!, region: timezone.startsWith('Europe/') ? 'eu' : 'us', city }
}

/**
 * faker's `image.personPortrait` address, chosen to match the name's sex. It is a stable CDN URL,
 * but a page showing it still fetches it (docs/decisions.md).
 */
const portraitUrl = (sex: 'female' | 'male', number: number) => `https://cdn.jsdelivr.net/gh/faker-js/assets-person-portrait/${sex}/512/${number}.jpg`

/** Work address at the company's `.example` domain, sometimes a personal one; both reserved (RFC 2606). */
function emailOf(random: RecordRandom, firstName: string, lastName: string, company: Company): string {
  const first = asciiOf(firstName)
  const last = asciiOf(lastName)
  const local = random.chance(0.75) ? `${first}.${last}` : `${first[0]}${last}`
  const domain = random.chance(0.8) ? `${company.slug}.example` : random.pick(PERSONAL_MAIL_DOMAINS)
  return `${local}@${domain}`
}

const SPELLED_OUT: Record<string, string> = { ä: 'ae', ö: 'oe', ü: 'ue', ß: 'ss' }

/** A name as an address spells it: umlauts written out, accents, spaces and apostrophes dropped. */
export function asciiOf(name: string): string {
  return name
    .toLowerCase()
    .replace(/[äöüß]/g, (letter) => SPELLED_OUT[letter]!)
    .normalize('NFD')
    .replace(/[^a-z0-9]/g, '')
}

function channelsOf(random: RecordRandom, company: Company, providers: readonly DemoProvider[]): ChannelSettings[] {
  const channels: ChannelSettings[] = []
  for (const [channel, share] of CHANNEL_SHARES) {
    if (!random.chance(share)) continue
    // The credentials upsert only resolves active integrations, so stored channels name those; like
    // the upsert's, an entry does not keep the integration's identifier.
    const candidates = providers.filter((provider) => provider.channel === channel && provider.integration.active)
    if (candidates.length === 0) continue
    const provider = weightedPick(random, candidates)
    channels.push({
      providerId: provider.providerId,
      _integrationId: provider.integration._id,
      credentials: provider.credentials(random, company),
    })
  }
  return channels
}
