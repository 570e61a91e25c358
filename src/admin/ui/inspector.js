// The state inspector: one tenant's records, refreshed as its calls arrive on the event stream,
// with reset and snapshots. Everything goes through the admin API with the key in the
// Authorization header; the key lives in this page's memory only, never in a URL or storage.
import { errorMessage, readEventStream, StreamRefused } from './event-stream.js'
import { element, renderCall, resetPages } from './render.js'
import { renderState } from './tenant-view.js'

const RETRY_MS = 2000
const $ = (id) => document.getElementById(id)

/** The tenant shown now; replaced (and its stream aborted) when another key is entered. */
let session

$('key-form').addEventListener('submit', (event) => {
  event.preventDefault()
  const key = $('api-key').value.trim()
  if (key !== '') show(key)
})

$('reset').addEventListener('click', () => act(session, 'reset to the seed', () => call(session, 'POST', '/__admin/reset')))

$('snapshot-form').addEventListener('submit', (event) => {
  event.preventDefault()
  const name = $('snapshot-name').value.trim()
  act(session, `snapshot ${name} saved`, () => call(session, 'POST', '/__admin/snapshots', { name }))
})

function show(key) {
  session?.controller.abort()
  session = { key, controller: new AbortController(), refresh: undefined }
  session.refresh = coalesced(loadTenant.bind(undefined, session))
  resetPages()
  $('calls').querySelector('ol').replaceChildren()
  notice('')
  $('tenant').hidden = false
  void session.refresh()
  void follow(session)
}

/** Admin calls change state without a journal entry, so the page reloads after its own. */
async function act(current, done, action) {
  if (!current) return
  try {
    await action()
    notice(done)
    await current.refresh()
  } catch (error) {
    if (current === session) notice(`failed: ${error.message}`, 'error')
  }
}

async function loadTenant(current) {
  try {
    const [state, { snapshots }] = await Promise.all([call(current, 'GET', '/__admin/state'), call(current, 'GET', '/__admin/snapshots')])
    if (current !== session) return
    renderState(state)
    renderSnapshots(current, snapshots)
  } catch (error) {
    if (current === session && error.name !== 'AbortError') notice(`could not read the tenant: ${error.message}`, 'error')
  }
}

/** The event stream, reopened after a drop until another key replaces this one. */
async function follow(current) {
  const headers = { Authorization: `ApiKey ${current.key}` }
  while (!current.controller.signal.aborted) {
    try {
      await readEventStream('/__admin/events?bodies=false', headers, current.controller.signal, (event) => onEvent(current, event))
      status('live updates ended; reconnecting', 'error')
    } catch (error) {
      if (current.controller.signal.aborted) return
      if (error instanceof StreamRefused && error.status === 401) return status(`live updates refused: ${error.message}`, 'error')
      status(`live updates lost (${error.message}); reconnecting`, 'error')
    }
    await new Promise((resolve) => setTimeout(resolve, RETRY_MS))
  }
}

function onEvent(current, { event, data }) {
  if (current !== session) return
  if (event === 'ready') {
    status('live: the tables follow this tenant’s calls', 'live')
  } else if (event === 'request') {
    renderCall($('calls').querySelector('ol'), JSON.parse(data))
  }
  // On ready too: calls made between the first load and the subscription are picked up.
  void current.refresh()
}

function renderSnapshots(current, snapshots) {
  const items = snapshots.map((snapshot) => {
    const restore = element('button', { type: 'button' }, ['Restore'])
    const path = `/__admin/snapshots/${encodeURIComponent(snapshot.name)}/restore`
    restore.addEventListener('click', () => act(current, `snapshot ${snapshot.name} restored`, () => call(current, 'POST', path)))
    return element('li', { 'data-name': snapshot.name }, [`${snapshot.name} (${snapshot.createdAt}) `, restore])
  })
  $('snapshots').replaceChildren(...items)
}

async function call(current, method, path, body) {
  const headers = { Authorization: `ApiKey ${current.key}` }
  if (body !== undefined) headers['Content-Type'] = 'application/json'
  const response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), signal: current.controller.signal })
  if (!response.ok) throw new Error(await errorMessage(response))
  return response.json()
}

/** Runs `load` now, or once more after the run in flight: a burst of calls costs two loads, not one each. */
function coalesced(load) {
  let running
  let again = false
  return async function run() {
    if (running) {
      again = true
      return running
    }
    running = (async () => {
      do {
        again = false
        await load()
      } while (again)
    })()
    try {
      await running
    } finally {
      running = undefined
    }
  }
}

/** The event stream's state. */
function status(text, kind = '') {
  $('status').textContent = text
  $('status').className = kind
}

/** The outcome of the last action or load. */
function notice(text, kind = '') {
  $('notice').textContent = text
  $('notice').className = kind
}
