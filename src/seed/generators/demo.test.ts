import { beforeAll, describe, expect, it } from 'vitest'
import { readWellKnown } from './seed.ts'
import { invariantProblems } from '../state-invariants.ts'
import { DEMO_VOLUMES } from '../seed-options.ts'
import type { Contract } from '../../contract/load-contract.ts'
import { seededState } from '../seeding.ts'
import { createApp } from '../../app/create-app.ts'
import { loadContracts } from '../../app/create-state.ts'
import type { StoredSubscriber, TenantState } from '../../store/records.ts'
import { ADA, GRACE, INTEGRATIONS } from '../../../test/helpers/well-known.ts'

const REFERENCE_MS = Date.parse('2025-01-01T00:00:00.000Z')
const SIX_WEEKS_MS = 42 * 24 * 60 * 60 * 1000

// Written apart from the generator's own tables: where a locale's country is, and how it dials.
const COUNTRIES: Record<string, { zone: RegExp; dial: string }> = {
  US: { zone: /^America\//, dial: '+1' },
  CA: { zone: /^America\//, dial: '+1' },
  MX: { zone: /^America\//, dial: '+52' },
  BR: { zone: /^America\//, dial: '+55' },
  GB: { zone: /^Europe\/London$/, dial: '+44' },
  DE: { zone: /^Europe\/Berlin$/, dial: '+49' },
  FR: { zone: /^Europe\/Paris$/, dial: '+33' },
  ES: { zone: /^Europe\/Madrid$/, dial: '+34' },
  IT: { zone: /^Europe\/Rome$/, dial: '+39' },
  NL: { zone: /^Europe\/Amsterdam$/, dial: '+31' },
  JP: { zone: /^Asia\/Tokyo$/, dial: '+81' },
  IN: { zone: /^Asia\/Kolkata$/, dial: '+91' },
  AU: { zone: /^Australia\//, dial: '+61' },
}

/** An IANA Area/Location name this runtime's Intl knows (it throws a RangeError for others). */
function isIanaZone(timeZone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone })
    return /^[A-Z][A-Za-z]+\/[A-Za-z_]+$/.test(timeZone)
  } catch {
    return false
  }
}

const demoSeed = (admin: Contract, seed = 1) => seededState({ seed, demo: true, ...DEMO_VOLUMES }, admin)

let admin: Contract
let state: TenantState
let generated: StoredSubscriber[]
beforeAll(async () => {
  admin = (await loadContracts()).admin
  state = demoSeed(admin)
  generated = state.subscribers.slice(2)
})

describe('the demo data set', () => {
  it('validates against the admin document, as a PUT /__admin/state body, and keeps the invariants', () => {
    const validate = admin.operations.get('putState')!.validateBody!
    expect(validate(state) ? [] : validate.errors?.slice(0, 5)).toEqual([])
    expect(invariantProblems(state)).toEqual({})
  })

  it('is what a server started with demo: true serves', async () => {
    const app = await createApp({ demo: true, logLevel: 'silent' })
    expect(app.locals.seed).toEqual(state)
  })

  it('keeps the well-known records, unchanged and first', () => {
    const wellKnown = readWellKnown()
    expect(state.subscribers.slice(0, 2)).toEqual(wellKnown.subscribers)
    expect(state.integrations.slice(0, 9)).toEqual(wellKnown.integrations)
    expect(state.messages.slice(0, 13)).toEqual(wellKnown.messages)
  })

  it('has hundreds of subscribers, each with a name, avatar, locale and timezone that agree', () => {
    expect(state.subscribers.length).toBeGreaterThanOrEqual(200)
    for (const s of generated) {
      expect([s.firstName, s.lastName, s.avatar, s.locale, s.timezone, s.email].every(Boolean), s.subscriberId).toBe(true)
      expect(s.avatar).toMatch(/^https:\/\/\S+\.jpg$/)
      expect(Intl.getCanonicalLocales(s.locale!)).toEqual([s.locale])
      expect(isIanaZone(s.timezone!), s.timezone!).toBe(true)
      const country = COUNTRIES[s.locale!.split('-')[1]!]
      expect(country, s.locale!).toBeDefined()
      expect(s.timezone, `${s.subscriberId} ${s.locale}`).toMatch(country!.zone)
      if (s.phone !== null) expect(s.phone!.startsWith(country!.dial) && /^\+\d{10,14}$/.test(s.phone!), `${s.locale} ${s.phone}`).toBe(true)
    }
    expect(new Set(generated.map((s) => s.locale)).size).toBeGreaterThanOrEqual(8)
    const emails = state.subscribers.map((s) => s.email)
    expect(new Set(emails).size).toBe(emails.length)
    expect(emails.filter((e) => !/^[a-z0-9.]+@[a-z0-9.]+$/.test(e!))).toEqual([])
  })

  it('dates every timestamp before the reference date, and gives every internal id 24 lowercase hex characters', () => {
    const text = JSON.stringify(state)
    const stamps = text.match(/"\d{4}-\d{2}-\d{2}T[^"]*"/g) ?? []
    // At least createdAt and updatedAt of subscribers and connections, createdAt and a delivery of messages.
    expect(stamps.length).toBeGreaterThanOrEqual(2 * (state.subscribers.length + state.channelConnections.length + state.messages.length))
    expect(stamps.filter((stamp) => !(Date.parse(JSON.parse(stamp)) < REFERENCE_MS))).toEqual([])
    const ids = [...text.matchAll(/"_(?:id|\w*Id)":"([^"]*)"/g)].map((match) => match[1]!)
    expect(ids.length).toBeGreaterThan(state.messages.length * 4)
    expect(ids.filter((id) => !/^[0-9a-f]{24}$/.test(id))).toEqual([])
  })

  it('adds integrations on every channel, with the well-known primaries still the only ones', () => {
    expect(state.integrations.length).toBeGreaterThan(9)
    const primaries = state.integrations.filter((i) => i.primary).map((i) => i._id)
    expect(primaries.sort()).toEqual([INTEGRATIONS.sendgrid, INTEGRATIONS.twilio])
    for (const channel of ['email', 'sms', 'push', 'chat', 'in_app']) expect(state.integrations.some((i) => i.channel === channel && i.active), channel).toBe(true)
    const identifiers = state.integrations.map((i) => i.identifier)
    expect(new Set(identifiers).size).toBe(identifiers.length)
  })

  it('connects subscribers across at least three providers, each connection naming an existing integration', () => {
    expect(state.channelConnections).toHaveLength(DEMO_VOLUMES.channelConnections)
    const integrationOf = new Map(state.integrations.map((i) => [i.identifier, i]))
    const subscriberIds = new Set(state.subscribers.map((s) => s.subscriberId))
    for (const c of state.channelConnections) {
      const integration = integrationOf.get(c.integrationIdentifier!)
      expect(integration, c.identifier).toBeDefined()
      expect([integration!.providerId, integration!.channel]).toEqual([c.providerId, c.channel])
      // A shared connection is linked to no subscriber (docs/behaviour.md §2.4).
      if (c.subscriberId !== null) expect(subscriberIds.has(c.subscriberId), c.identifier).toBe(true)
    }
    const shared = state.channelConnections.filter((c) => c.subscriberId === null).length
    expect(shared / state.channelConnections.length).toBeCloseTo(0.1, 1)
    expect(new Set(state.channelConnections.map((c) => c.providerId)).size).toBeGreaterThanOrEqual(3)
    expect(state.channelConnections.slice(0, 2).map((c) => c.subscriberId)).toEqual([ADA, GRACE])
    expect(state.channelConnections.some((c) => c.contextKeys.includes('tenant:acme'))).toBe(true)
  })

  it('stores subscriber channels only at active integrations that exist', () => {
    const integrationOf = new Map(state.integrations.map((i) => [i._id, i]))
    const channels = generated.flatMap((s) => s.channels ?? [])
    expect(channels.length).toBeGreaterThan(100)
    for (const channel of channels) {
      const integration = integrationOf.get(channel._integrationId)
      expect([integration?.providerId, integration?.active]).toEqual([channel.providerId, true])
      // As the credentials upsert stores an entry: the identifier only chose the integration.
      expect(channel).not.toHaveProperty('integrationIdentifier')
    }
  })

  it('sends messages with subjects and content, on every channel, over the last six weeks, in every read state', () => {
    const messages = state.messages.slice(13)
    expect(messages.length).toBeGreaterThanOrEqual(1000)
    expect(messages.filter((m) => m.content === undefined || m.content.length === 0)).toEqual([])
    // A text message has no subject line, as with the live service's sms steps.
    expect(messages.filter((m) => m.channel !== 'sms' && !m.subject)).toEqual([])
    expect(new Set(messages.map((m) => m.channel))).toEqual(new Set(['in_app', 'email', 'sms', 'push', 'chat']))
    expect(messages.filter((m) => m.read && !m.seen)).toEqual([])
    const counts = { read: 0, seen: 0, unseen: 0 }
    for (const m of messages) counts[m.read ? 'read' : m.seen ? 'seen' : 'unseen']++
    for (const [name, count] of Object.entries(counts)) expect(count, name).toBeGreaterThan(messages.length / 10)
    for (const m of messages) {
      const sent = Date.parse(m.createdAt)
      expect(sent > REFERENCE_MS - SIX_WEEKS_MS && sent < REFERENCE_MS, m._id).toBe(true)
      for (const later of [m.lastSeenDate, m.lastReadDate, ...(m.deliveredAt ?? [])]) if (later) expect(Date.parse(later) >= sent && Date.parse(later) < REFERENCE_MS, m._id).toBe(true)
    }
  })

  it('shapes content by channel: email blocks with a button, inbox calls to action with decisions', () => {
    const messages = state.messages.slice(13)
    const emails = messages.filter((m) => m.channel === 'email')
    expect(emails.every((m) => Array.isArray(m.content) && m.content.some((b) => b.type === 'button' && b.url?.startsWith('https://')))).toBe(true)
    const inbox = messages.filter((m) => m.channel === 'in_app')
    expect(inbox.every((m) => m.cta.type === 'redirect' && typeof m.cta.data?.url === 'string')).toBe(true)
    expect(inbox.some((m) => m.cta.action?.status === 'pending' && m.cta.action.buttons?.length === 2)).toBe(true)
    expect(inbox.some((m) => m.cta.action?.status === 'done' && m.cta.action.result !== undefined)).toBe(true)
    expect(messages.some((m) => m.status === 'error' && m.errorText)).toBe(true)
    const ownerOf = new Map(state.subscribers.map((s) => [s._id, s]))
    for (const m of emails) expect(m.email).toBe(ownerOf.get(m._subscriberId)!.email)
  })
})

describe('determinism of the demo data set', () => {
  it('is deep-equal for the same seed and differs for another, apart from the well-known records', () => {
    expect(demoSeed(admin)).toEqual(state)
    const other = demoSeed(admin, 2)
    const same = (kind: Exclude<keyof TenantState, 'workflows'>, from: number) => other[kind].slice(from).filter((record, i) => JSON.stringify(record) === JSON.stringify(state[kind][from + i])).length
    expect([same('subscribers', 2), same('channelConnections', 2), same('messages', 13)]).toEqual([0, 0, 0])
    expect(other.integrations).toEqual(state.integrations)
  })

  it('lets explicit volumes override the demo volumes, keeping the records they share', () => {
    const small = seededState({ seed: 1, demo: true, subscribers: 20, channelConnections: 5, messages: 40 }, admin)
    expect([small.subscribers.length, small.channelConnections.length, small.messages.length]).toEqual([20, 5, 40])
    expect(small.subscribers).toEqual(state.subscribers.slice(0, 20))
    // Connections pick among the subscribers, so only a change of their own count keeps the rest.
    const fewerConnections = seededState({ seed: 1, demo: true, ...DEMO_VOLUMES, channelConnections: 5 }, admin)
    expect(fewerConnections.channelConnections).toEqual(state.channelConnections.slice(0, 5))
    expect([fewerConnections.subscribers, fewerConnections.messages]).toEqual([state.subscribers, state.messages])
    expect(seededState({ seed: 1, demo: true, subscribers: 2, channelConnections: 0 }, admin).messages).toHaveLength(13)
  })
})
