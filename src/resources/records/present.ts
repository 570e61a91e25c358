import type { components } from '../../contract/generated/openapi-types.ts'
import type { StoredChannelConnection, StoredIntegration, StoredMessage, StoredSubscriber } from '../../store/records.ts'
import type { TenantIds } from '../tenant.ts'
import { Lru } from '../../lib/lru.ts'

type Schemas = components['schemas']

/* Stored records become API records here: tenant ids stamped on, internal fields left behind. */

type Stamp = { _organizationId: string; _environmentId: string }

/**
 * Stamps the tenant's ids onto a copy made for the answer (after its own fields). Plain stores
 * rather than `{ ...record, ...stamp }`: in V8 a spread followed by fields the record lacks gives
 * every answer a hidden class of its own, slow to make, check and serialize (docs/decisions.md,
 * 2026-11-24).
 */
function stamped<T extends object>(copy: T, tenant: TenantIds): T & Stamp {
  const out = copy as T & Stamp
  out._organizationId = tenant.organizationId
  out._environmentId = tenant.environmentId
  return out
}

/** The stored entity, as the v1 credentials answer returns it. */
export function presentSubscriber(record: StoredSubscriber, tenant: TenantIds): Schemas['Subscriber'] {
  return stamped(Object.assign({}, record), tenant)
}

/** As GET v2 maps it: every field but `__v` (docs/behaviour.md §2.2). */
export function presentSubscriberV2(record: StoredSubscriber, tenant: TenantIds): Schemas['Subscriber'] {
  const { __v: _version, ...visible } = record
  return stamped(visible, tenant)
}

/** A subscriber as GET v2 shows it to one tenant, and its JSON. */
export interface ShownSubscriber {
  readonly value: Schemas['Subscriber'] & Stamp
  readonly text: string
}

/**
 * Subscribers shown lately, the least recently shown forgotten first: fewer than connections, as a
 * GET shows one subscriber (each a few KB with its JSON) where a page shows up to a hundred connections.
 */
const shownSubscribers = new Lru<ShownSubscriber, StoredSubscriber>(1_000)

/**
 * `presentSubscriberV2` and its JSON, made once per stored version of a subscriber and tenant (the
 * seed's records are every tenant's, stamped with each one's ids): the same subscriber is read
 * again and again, and making its answer and JSON on every read cost a GET about a sixth of its CPU.
 */
export function shownSubscriber(record: StoredSubscriber, tenant: TenantIds): ShownSubscriber {
  const shown = shownSubscribers.get(record)
  if (shown?.value._environmentId === tenant.environmentId && shown.value._organizationId === tenant.organizationId) return shown
  const value = presentSubscriberV2(record, tenant) as ShownSubscriber['value']
  const made = { value, text: JSON.stringify(value) }
  shownSubscribers.set(record, made)
  return made
}

export function presentIntegration(record: StoredIntegration, tenant: TenantIds): Schemas['Integration'] {
  const { priority: _priority, createdAt: _createdAt, ...visible } = record
  // Secrets are never echoed: the live service answers set-primary with empty credentials too.
  visible.credentials = {}
  return stamped(visible, tenant)
}

export function presentConnection(record: StoredChannelConnection): Schemas['ChannelConnection'] {
  const { _id, ...visible } = record
  return visible
}

/** A connection as a list page shows it, and its JSON. */
export interface ShownConnection {
  readonly value: Schemas['ChannelConnection']
  readonly text: string
}

/** Connections shown lately, the least recently shown forgotten first, so the memory is bounded whatever is listed. */
const SHOWN_KEPT = 10_000
const shown = new Lru<ShownConnection, StoredChannelConnection>(SHOWN_KEPT)

/**
 * `presentConnection` and its JSON, made once per stored version of a connection: a stored record
 * is never changed (a write stores a new one), and nothing changes what is shown. A page is most of
 * a list call's work, and the same connections are listed again and again.
 */
export function shownConnection(record: StoredChannelConnection): ShownConnection {
  return shown.remember(record, showOf)
}

function showOf(record: StoredChannelConnection): ShownConnection {
  const value = presentConnection(record)
  return { value, text: JSON.stringify(value) }
}

/**
 * As the live service's mark-as mapper returns it: without `contextKeys`, `template` and
 * `subscriber`, and with `_feedId` null when the message has none (docs/behaviour.md §2.5).
 */
export function presentMessage(record: StoredMessage, tenant: TenantIds): Schemas['Message'] {
  const { template: _template, contextKeys: _contextKeys, ...rest } = record
  const message: Schemas['Message'] = stamped(rest, tenant)
  message._feedId = record._feedId ?? null
  return message
}
