// The inspector: the tenants the server holds, one tenant's records and calls as they change, and
// its controls. Every read goes through /__admin (never the Novu API), as the shown tenant, with
// the admin token where the server asks for one.
import { adminCall, adminHeaders, CallFailed, useAdminToken } from './api.js'
import { CallsPane, MAX_SHOWN } from './views/calls-view.js'
import { loadControl, renderControl, wireControl } from './views/control-view.js'
import { readEventStream, StreamRefused } from './event-stream.js'
import { DetailPane } from './views/detail-view.js'
import { RecordTable } from './render.js'
import { connectionQuery, renderState } from './views/state-view.js'
import { CONNECTIONS, INTEGRATIONS, MESSAGES, SUBSCRIBERS, WORKFLOWS } from './views/tenant-view.js'
import { renderTenants } from './views/tenants-view.js'
import { OPERATIONS } from './operations.js'
import { notice, status } from './page-lines.js'
import { throttled } from './throttle.js'

/** However many calls arrive, the tenant is re-read at most this often. */
const REFRESH_MS = 1000
/** Tenants come and go with other keys' calls, which no stream of this page carries. */
const TENANTS_MS = 5000
const RETRY_MS = 2000
/** The journal's most recent calls shown when a tenant is picked; the stream adds the rest. */
const JOURNAL_SHOWN = 100
const $ = (id) => document.getElementById(id)

const views = { subscribers: SUBSCRIBERS, integrations: INTEGRATIONS, connections: CONNECTIONS, messages: MESSAGES, workflows: WORKFLOWS }
const tables = Object.fromEntries(Object.entries(views).map(([id, view]) => [id, new RecordTable($(id), { ...view, onOpen: (row) => detail.open(id, row) })]))
const detail = new DetailPane($('detail'), views, tables)
const calls = new CallsPane($('calls'), { load: loadCall, key: () => session?.key })

/** The server asks for its admin token (GET /__admin/health), and it was not accepted yet. */
let locked = false
let tenants = []
let tab = 'subscribers'
/** The tenant shown now; replaced (its stream aborted, its reads ignored) when another is picked. */
let session

void start()

async function start() {
  for (const select of document.querySelectorAll('select.operations')) select.append(...OPERATIONS.map((id) => new Option(id, id)))
  wireForms()
  wireControl({ call: (path, options) => sessionCall(session, path, options), act })
  showTab(tab)
  const { adminAccess = 'open' } = await adminCall('/__admin/health')
  if (adminAccess === 'closed') {
    $('key-form').querySelector('button').disabled = true
    return status('This server’s control plane is closed: it listens beyond loopback without an admin token. Start it with --admin-token to use this page.', 'error')
  }
  if (adminAccess === 'token') {
    locked = true
    $('token-form').hidden = false
    $('admin-token').focus()
    return status('This server asks for its admin token: enter it first.')
  }
  status('Pick a tenant, or enter the API key your client uses.')
  followTenants()
}

function wireForms() {
  for (const form of [$('token-form'), $('key-form')]) {
    form.addEventListener('submit', (event) => {
      event.preventDefault()
      void enter()
    })
  }
  for (const tabButton of $('tabs').querySelectorAll('[data-tab]')) tabButton.addEventListener('click', () => showTab(tabButton.dataset.tab))
  $('search').addEventListener('input', () => tables[tab]?.filter($('search').value))
  $('connection-filters').addEventListener('submit', (event) => {
    event.preventDefault()
    if (!session) return
    session.cursor = {}
    session.refresh({ now: true })
  })
}

/** Enter in either field: a filled token field is taken first while the server asks for it, then a filled API key is shown. */
async function enter() {
  const token = $('admin-token').value
  if (locked && token !== '' && !(await unlock(token))) return
  const key = $('api-key').value.trim()
  if (key !== '') show(key)
}

/** Whether the server took the token. */
async function unlock(token) {
  useAdminToken(token)
  try {
    await loadTenants()
    $('token-form').hidden = true
    locked = false
    status('Admin token accepted. Pick a tenant, or enter the API key your client uses.')
    followTenants()
    return true
  } catch (error) {
    useAdminToken(undefined)
    status(error instanceof CallFailed && error.status === 404 ? 'The server refused this admin token.' : `Could not check the token: ${error.message}`, 'error')
    return false
  }
}

function followTenants() {
  void loadTenants().catch(() => {})
  setInterval(() => document.visibilityState === 'visible' && void loadTenants().catch(() => {}), TENANTS_MS)
}

async function loadTenants() {
  // With --api-key the list needs an accepted key: the one being shown, once there is one.
  ;({ tenants } = await adminCall('/__admin/tenants', { key: session?.key }))
  renderTenants($('tenants'), tenants, { current: session?.key, pick })
  if (session) markFreshness(session)
}

function pick(key) {
  $('api-key').value = ''
  show(key)
}

function show(key) {
  if (locked) return status('Enter the admin token first.', 'error')
  session?.controller.abort()
  const current = { key, controller: new AbortController(), cursor: {}, pending: [], streaming: false, closedBecause: undefined }
  current.refresh = throttled(() => loadTenant(current), REFRESH_MS)
  session = current
  for (const table of Object.values(tables)) table.clear()
  detail.close()
  calls.reset([])
  notice('')
  document.body.dataset.tenant = 'shown'
  renderTenants($('tenants'), tenants, { current: key, pick })
  markFreshness(current)
  current.refresh({ now: true })
  void follow(current)
}

/** A key the server does not hold, or holds without a call yet, is flagged rather than shown as live. */
function markFreshness(current) {
  const held = tenants.find((tenant) => tenant.apiKey === current.key)
  if (!held) status('no calls yet with this key: a fresh tenant from the seed. Looking at it does not keep it.', 'fresh')
  else if (held.calls === 0) status(`no calls yet with this key: ${held.created ? 'a tenant created through the admin API' : 'a tenant the server keeps'}`, 'fresh')
  else if (current.streaming) status('live: the tables and calls follow this tenant', 'live')
  else status('connecting to the live updates…')
}

/**
 * The tenant's records (and, on the Control tab, its snapshots and rules), and the calls that
 * arrived since; with new calls, the tenants too (their counts, and this key's freshness).
 */
async function loadTenant(current) {
  try {
    const [state, page, control] = await Promise.all([
      sessionCall(current, '/__admin/state'),
      sessionCall(current, `/__admin/channel-connections?${connectionQuery(current.cursor)}`),
      tab === 'control' ? loadControl((path) => sessionCall(current, path)) : undefined,
      current.pending.length > 0 ? loadTenants() : undefined,
    ])
    if (current !== session) return
    renderState(state, page, { tables, detail, turnPage })
    if (control) renderControl(control, { call: (path, options) => sessionCall(current, path, options), act })
    // Under load thousands of calls arrive between two re-reads: only the last are shown.
    calls.add(current.pending.splice(0).slice(-MAX_SHOWN).map(({ data }) => JSON.parse(data)))
  } catch (error) {
    if (current === session && error.name !== 'AbortError') notice(`could not read the tenant: ${error.message}`, 'error')
  }
}

/**
 * The event stream, reopened after a drop until another tenant replaces this one; not after the
 * server closed it to give its place to another key's stream (reopening would take one back).
 */
async function follow(current) {
  while (!current.controller.signal.aborted) {
    try {
      await readEventStream('/__admin/events?bodies=false', adminHeaders(current.key), current.controller.signal, (event) => onEvent(current, event))
      if (current.closedBecause !== undefined) return status(`live updates closed: ${current.closedBecause}; reload the page to follow again`, 'error')
      status('live updates ended; reconnecting', 'error')
    } catch (error) {
      if (current.controller.signal.aborted) return
      if (error instanceof StreamRefused && error.status < 500) return status(`live updates refused: ${error.message}`, 'error')
      status(`live updates lost (${error.message}); reconnecting`, 'error')
    }
    current.streaming = false
    await new Promise((resolve) => setTimeout(resolve, RETRY_MS))
  }
}

async function onEvent(current, { event, id, data }) {
  if (current !== session) return
  if (event === 'ready') {
    current.streaming = true
    // The calls before the stream opened are the journal's; those after it come as events.
    const { requests } = await sessionCall(current, `/__admin/requests?limit=${JOURNAL_SHOWN}`).catch(() => ({ requests: [] }))
    if (current !== session) return
    const last = requests.at(-1)?.id ?? 0
    current.pending = current.pending.filter((entry) => entry.id > last)
    calls.reset(requests)
    markFreshness(current)
  } else if (event === 'closed') {
    current.closedBecause = JSON.parse(data).reason
    current.streaming = false
    return
  } else if (event === 'request') {
    // Kept as sent: parsed only if shown, and trimmed now and then rather than on every call.
    current.pending.push({ id: Number(id), data })
    if (current.pending.length >= 2 * MAX_SHOWN) current.pending.splice(0, current.pending.length - MAX_SHOWN)
  }
  current.refresh()
}

async function loadCall(id) {
  const current = session
  const { requests } = await sessionCall(current, `/__admin/requests?id=${id}`)
  return requests[0]
}

/** Admin actions leave no journal entry, so the page re-reads at once after its own. */
async function act(done, action) {
  const current = session
  if (!current) return
  try {
    await action()
    notice(done)
    current.refresh({ now: true })
    void loadTenants().catch(() => {})
  } catch (error) {
    if (current === session) notice(`failed: ${error.message}`, 'error')
  }
}

function turnPage(cursor) {
  session.cursor = cursor
  session.refresh({ now: true })
}

function sessionCall(current, path, options = {}) {
  return adminCall(path, { key: current.key, signal: current.controller.signal, ...options })
}

function showTab(id) {
  detail.closeUnlessOn(id)
  tab = id
  for (const tabButton of $('tabs').querySelectorAll('[data-tab]')) tabButton.setAttribute('aria-selected', String(tabButton.dataset.tab === id))
  for (const panel of document.querySelectorAll('#records .panel')) panel.hidden = panel.id !== id
  document.querySelector('.searchbar').hidden = id === 'control'
  tables[id]?.filter($('search').value)
  if (session) session.refresh({ now: true })
}
