import { randomBytes } from 'node:crypto'
import { invalid } from '../rule-broken.ts'
import type { StoredSubscriber } from '../../store/records.ts'
import type { TenantTransaction } from '../../store/store.ts'

/** The fields a caller sets on a subscriber (Novu's CreateSubscriberRequestDto, SubscriberPayloadDto). */
export interface SubscriberFields {
  subscriberId: string
  firstName?: string | null
  lastName?: string | null
  email?: string | null
  phone?: string | null
  avatar?: string | null
  locale?: string | null
  timezone?: string | null
  data?: Record<string, unknown> | null
}

const SETTABLE = ['firstName', 'lastName', 'email', 'phone', 'avatar', 'locale', 'timezone', 'data'] as const
export type Settable = Omit<SubscriberFields, 'subscriberId'>

/** The problems of the fields the live service's DTO checks beyond the document (class-validator's words). */
export function problemsOf(fields: Partial<SubscriberFields>, withId: boolean): string[] {
  const problems: string[] = []
  if (withId && !fields.subscriberId) problems.push('subscriberId should not be empty')
  if (typeof fields.email === 'string' && !EMAIL.test(fields.email)) problems.push('email must be an email')
  if (typeof fields.locale === 'string' && !isLocale(fields.locale)) problems.push('locale must be locale')
  if (typeof fields.timezone === 'string' && !isTimeZone(fields.timezone)) problems.push('timezone must be a valid IANA time-zone')
  return problems
}

export function checkFields(fields: Partial<SubscriberFields>, withId: boolean): void {
  const problems = problemsOf(fields, withId)
  if (problems.length > 0) throw invalid(problems)
}

// One address, as class-validator's isEmail takes it in the common case: no spaces, one @, a dotted domain.
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/

function isLocale(value: string): boolean {
  try {
    return Intl.getCanonicalLocales(value).length === 1
  } catch {
    return false
  }
}

function isTimeZone(value: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: value })
    return true
  } catch {
    return false
  }
}

/** The fields sent, and only those: an absent one is left alone, a `null` one stored as null. */
function sentFields(fields: Settable): Settable {
  const sent: Settable = {}
  for (const name of SETTABLE) if (fields[name] !== undefined) (sent as Record<string, unknown>)[name] = fields[name]
  return sent
}

/** An ObjectId as the live service's database makes one: its creation second, then random bytes. */
export function newObjectId(at: Date): string {
  return Math.floor(at.getTime() / 1000).toString(16).padStart(8, '0').slice(-8) + randomBytes(8).toString('hex')
}

export interface Upserted {
  record: StoredSubscriber
  created: boolean
}

/**
 * Creates the subscriber or updates it with the fields sent (POST /v2/subscribers, a trigger's
 * recipients). `replaceData`: an update with no `data` sets `{}`, as the create operation does.
 */
export function upsertSubscriber(tx: TenantTransaction, fields: SubscriberFields, at: Date, replaceData: boolean): Upserted {
  const { subscriberId, ...rest } = fields
  const sent = sentFields(rest)
  const existing = tx.subscriber(subscriberId)
  const now = at.toISOString()
  if (existing) {
    const record: StoredSubscriber = { ...existing, ...sent, updatedAt: now }
    if (replaceData) record.data = sent.data ?? {}
    tx.putSubscriber(record)
    return { record, created: false }
  }
  const record: StoredSubscriber = {
    _id: newObjectId(at),
    subscriberId,
    ...sent,
    channels: [],
    isOnline: false,
    lastOnlineAt: null,
    deleted: false,
    createdAt: now,
    updatedAt: now,
  }
  tx.putSubscriber(record)
  return { record, created: true }
}

/** The subscriber with the fields sent: `null` clears (stored as null), `data` replaced whole. */
export function patchedSubscriber(existing: StoredSubscriber, fields: Settable, at: Date): StoredSubscriber {
  return { ...existing, ...sentFields(fields), updatedAt: at.toISOString() }
}
