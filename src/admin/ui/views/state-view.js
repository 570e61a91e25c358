// A tenant's state in the tables, and the Connections tab: its filters as the API's query, its
// pager, and the providers to filter by.
import { byChannel, subscriberIds } from './tenant-view.js'

const $ = (id) => document.getElementById(id)

/** The state and a page of connections in the tables, the tabs' counts and the open record. */
export function renderState(state, page, { tables, detail, turnPage }) {
  subscriberIds.clear()
  for (const subscriber of state.subscribers) subscriberIds.set(subscriber._id, subscriber.subscriberId)
  tables.subscribers.show(state.subscribers)
  tables.integrations.show(byChannel(state.integrations))
  tables.messages.show(state.messages)
  // A tenant without workflows accepts every trigger's name: its tab is empty.
  const workflows = state.workflows ?? []
  tables.workflows.show(workflows)
  tables.connections.show(page.data)
  renderConnectionPager(page, turnPage)
  fillProviders(state.integrations)
  const counts = { subscribers: state.subscribers.length, integrations: state.integrations.length, connections: page.totalCount, messages: state.messages.length, workflows: workflows.length }
  for (const [id, count] of Object.entries(counts)) $('tabs').querySelector(`[data-tab="${id}"] .count`).textContent = `(${count})`
  detail.refresh({ subscribers: state.subscribers, integrations: state.integrations, connections: page.data, messages: state.messages, workflows })
}

/** The filters of the Connections tab, as the API's query, and the page's cursor. */
export function connectionQuery(cursor) {
  const form = new FormData($('connection-filters'))
  const query = new URLSearchParams()
  for (const [name, value] of form) {
    if (value === '') continue
    if (name === 'contextKeys') for (const key of value.split(',').map((k) => k.trim()).filter(Boolean)) query.append(name, key)
    else query.append(name, value)
  }
  for (const [name, value] of Object.entries(cursor)) query.append(name, value)
  return query
}

/** The pager under the connections: `turnTo` is given the cursor of the page asked for. */
function renderConnectionPager(page, turnTo) {
  const pager = $('connections').querySelector('.pager')
  const turn = (label, cursor) => {
    const node = document.createElement('button')
    Object.assign(node, { type: 'button', textContent: label, className: label.toLowerCase(), disabled: cursor === null })
    node.addEventListener('click', () => turnTo(cursor))
    return node
  }
  const info = document.createElement('span')
  info.textContent = `${page.data.length} shown of ${page.totalCount}${page.totalCountCapped ? '+' : ''}`
  pager.replaceChildren(turn('Previous', page.previous === null ? null : { before: page.previous }), info, turn('Next', page.next === null ? null : { after: page.next }))
}

/** The providers of the tenant's integrations, as choices of the connections' filter. */
function fillProviders(integrations) {
  const select = $('connection-filters').elements.providerId
  const providers = [...new Set(integrations.map((i) => i.providerId))].sort()
  const shown = [...select.options].slice(1).map((o) => o.value)
  if (providers.join() === shown.join()) return
  const chosen = select.value
  select.replaceChildren(new Option('any provider', ''), ...providers.map((p) => new Option(p, p)))
  select.value = providers.includes(chosen) ? chosen : ''
}
