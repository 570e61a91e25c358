// What each table shows of the stored records (GET /__admin/state, the stored form).
import { element, renderTable } from './render.js'

const CHANNEL_ORDER = ['email', 'sms', 'push', 'chat', 'in_app']

export function renderState(state) {
  const subscriberIds = new Map(state.subscribers.map((s) => [s._id, s.subscriberId]))
  renderTable(section('subscribers'), state.subscribers, [
    { title: 'subscriberId', value: (s) => s.subscriberId, className: 'id' },
    { title: 'name', value: (s) => [s.firstName, s.lastName].filter(Boolean).join(' ') },
    { title: 'email', value: (s) => s.email },
    { title: 'channels', value: (s) => (s.channels ?? []).map((c) => c.providerId).join(', ') },
    { title: 'updatedAt', value: (s) => s.updatedAt, className: 'mono' },
  ], (s) => ({ 'data-id': s.subscriberId }))

  renderTable(section('integrations'), byChannel(state.integrations), [
    { title: 'channel', value: (i) => i.channel },
    { title: 'primary', value: (i) => (i.primary ? element('span', { class: 'badge' }, ['★ primary']) : '') },
    { title: 'name', value: (i) => i.name },
    { title: 'provider', value: (i) => i.providerId },
    { title: 'identifier', value: (i) => i.identifier },
    { title: 'active', value: (i) => i.active },
    { title: 'priority', value: (i) => i.priority },
    { title: '_id', value: (i) => i._id, className: 'id' },
  ], (i) => ({ 'data-id': i._id, 'data-primary': String(i.primary) }), (i) => (i.primary ? 'primary' : ''))

  renderTable(section('connections'), state.channelConnections, [
    { title: 'identifier', value: (c) => c.identifier, className: 'id' },
    { title: 'channel', value: (c) => c.channel },
    { title: 'provider', value: (c) => c.providerId },
    { title: 'subscriberId', value: (c) => c.subscriberId },
    { title: 'integration', value: (c) => c.integrationIdentifier },
    { title: 'contextKeys', value: (c) => (c.contextKeys ?? []).join(', ') },
    { title: 'workspace', value: (c) => c.workspace?.name ?? c.workspace?.id },
    { title: 'createdAt', value: (c) => c.createdAt, className: 'mono' },
  ], (c) => ({ 'data-id': c._id }))

  renderTable(section('messages'), state.messages, [
    { title: '_id', value: (m) => m._id, className: 'id' },
    { title: 'subscriberId', value: (m) => subscriberIds.get(m._subscriberId) ?? m._subscriberId },
    { title: 'channel', value: (m) => m.channel },
    { title: 'subject', value: (m) => m.subject ?? (typeof m.content === 'string' ? m.content : '') },
    { title: 'seen', value: (m) => m.seen, className: 'seen' },
    { title: 'read', value: (m) => m.read, className: 'read' },
    { title: 'lastReadDate', value: (m) => m.lastReadDate, className: 'mono' },
  ], (m) => ({ 'data-id': m._id, 'data-seen': String(m.seen), 'data-read': String(m.read) }))
}

/** Grouped by channel, the preferred first within each (as set-primary orders priorities). */
function byChannel(integrations) {
  const rank = (channel) => (CHANNEL_ORDER.includes(channel) ? CHANNEL_ORDER.indexOf(channel) : CHANNEL_ORDER.length)
  return [...integrations].sort((a, b) => rank(a.channel) - rank(b.channel) || Number(b.primary) - Number(a.primary) || b.priority - a.priority)
}

function section(id) {
  return document.getElementById(id)
}
