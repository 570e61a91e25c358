// What each record table shows: subscribers, integrations and messages as stored (GET
// /__admin/state), channel connections as the API pages them (GET /__admin/channel-connections).
import { element } from '../render.js'

const CHANNEL_ORDER = ['email', 'sms', 'push', 'chat', 'in_app']

/** An ISO time to the minute, for a table cell; the row's JSON has it whole. */
const minute = (time) => (typeof time === 'string' ? time.slice(0, 16).replace('T', ' ') : time)

/**
 * A 24-character id by its two ends: ObjectIds of different subscribers differ at the start
 * (64f2… and 64f3…) and those of one subscriber at the end. Hovered, the whole id.
 */
const idEnds = (id) => {
  const text = String(id)
  return element('span', { title: text }, [text.length > 14 ? `${text.slice(0, 6)}…${text.slice(-6)}` : text])
}

const deviceTokenCount = (subscriber) => (subscriber.channels ?? []).reduce((sum, channel) => sum + (channel.credentials?.deviceTokens?.length ?? 0), 0)

export const SUBSCRIBERS = {
  columns: [
    { title: 'subscriberId', value: (s) => s.subscriberId, className: 'id' },
    { title: 'name', value: (s) => [s.firstName, s.lastName].filter(Boolean).join(' '), className: 'text' },
    { title: 'email', value: (s) => s.email, className: 'text' },
    { title: 'channels', value: (s) => (s.channels ?? []).map((c) => c.providerId).join(', ') },
    { title: 'device tokens', value: deviceTokenCount, className: 'number' },
  ],
  idOf: (s) => s.subscriberId,
  titleOf: (s) => `Subscriber ${s.subscriberId}`,
}

export const INTEGRATIONS = {
  columns: [
    { title: 'channel', value: (i) => i.channel },
    { title: 'primary', value: (i) => (i.primary ? element('span', { class: 'badge' }, ['★ primary']) : '') },
    { title: 'name', value: (i) => i.name },
    { title: 'provider', value: (i) => i.providerId },
    { title: 'identifier', value: (i) => i.identifier, className: 'mono' },
    { title: 'active', value: (i) => i.active },
    { title: 'priority', value: (i) => i.priority, className: 'number' },
  ],
  idOf: (i) => i._id,
  attributes: (i) => ({ 'data-primary': String(i.primary) }),
  rowClass: (i) => (i.primary ? 'primary' : ''),
  titleOf: (i) => `Integration ${i.identifier}`,
  pageSize: 0,
}

export const CONNECTIONS = {
  columns: [
    { title: 'identifier', value: (c) => c.identifier, className: 'id' },
    { title: 'channel', value: (c) => c.channel },
    { title: 'subscriberId', value: (c) => c.subscriberId },
    { title: 'integration', value: (c) => c.integrationIdentifier },
    { title: 'contextKeys', value: (c) => (c.contextKeys ?? []).join(', '), className: 'text' },
    { title: 'createdAt', value: (c) => minute(c.createdAt), className: 'mono' },
  ],
  idOf: (c) => c.identifier,
  titleOf: (c) => `Channel connection ${c.identifier}`,
  // The server pages these: the table shows the page it was given.
  pageSize: 0,
}

/** subscriberId by the subscriber's `_id`, as of the last refresh: a message names its subscriber by `_id`. */
export const subscriberIds = new Map()

export const MESSAGES = {
  columns: [
    { title: '_id', value: (m) => idEnds(m._id), className: 'id' },
    { title: 'subscriberId', value: (m) => subscriberIds.get(m._subscriberId) ?? m._subscriberId },
    { title: 'channel', value: (m) => m.channel },
    { title: 'seen', value: (m) => m.seen, className: 'seen' },
    { title: 'read', value: (m) => m.read, className: 'read' },
    { title: 'subject / content', value: (m) => m.subject ?? (typeof m.content === 'string' ? m.content : ''), className: 'text' },
    { title: 'lastReadDate', value: (m) => minute(m.lastReadDate), className: 'mono' },
  ],
  idOf: (m) => m._id,
  attributes: (m) => ({ 'data-seen': String(m.seen), 'data-read': String(m.read) }),
  titleOf: (m) => `Message ${m._id}`,
}

/** The tenant's workflows, which a trigger's name must match (none: every name accepted). */
export const WORKFLOWS = {
  columns: [
    { title: 'workflowId', value: (w) => w.workflowId, className: 'id' },
    { title: 'name', value: (w) => w.name, className: 'text' },
    { title: 'active', value: (w) => w.active },
  ],
  idOf: (w) => w.workflowId,
  titleOf: (w) => `Workflow ${w.workflowId}`,
}

/** Grouped by channel, the preferred first within each (as set-primary orders priorities). */
export function byChannel(integrations) {
  const rank = (channel) => (CHANNEL_ORDER.includes(channel) ? CHANNEL_ORDER.indexOf(channel) : CHANNEL_ORDER.length)
  return [...integrations].sort((a, b) => rank(a.channel) - rank(b.channel) || Number(b.primary) - Number(a.primary) || b.priority - a.priority)
}
