// The journal's pane: the tenant's calls, newest first, each opening to its request and answer.
// The live stream sends a line per call (no headers, no bodies); a call's whole entry is read
// from the journal when it is opened.
import { button, element, pretty } from '../render.js'

/** Calls kept in the pane: the journal itself keeps more, at GET /__admin/requests. */
export const MAX_SHOWN = 200

/** Headers curl sets itself, or that describe this one connection rather than the call. */
const NOT_REPLAYED = new Set(['host', 'content-length', 'connection', 'keep-alive', 'transfer-encoding', 'accept-encoding'])

export class CallsPane {
  /** `load(id)`: the whole entry of call `id`, or undefined once the journal dropped it. `key()`: the shown tenant's key, for curl. */
  constructor(root, { load, key }) {
    Object.assign(this, { root, load, key })
    this.list = root.querySelector('ol')
    this.filters = { operation: root.querySelector('#call-operation'), status: root.querySelector('#call-status') }
    for (const select of Object.values(this.filters)) select.addEventListener('change', () => this.applyFilters())
  }

  /** Another tenant: its journal's recent calls (oldest first, as the journal lists them). */
  reset(entries) {
    this.list.replaceChildren()
    this.add(entries)
  }

  /** Calls to show, oldest first; each goes on top. */
  add(entries) {
    for (const entry of entries) this.list.prepend(this.itemOf(entry))
    while (this.list.children.length > MAX_SHOWN) this.list.lastElementChild.remove()
    this.applyFilters()
  }

  applyFilters() {
    const operation = this.filters.operation.value
    const status = this.filters.status.value
    let shown = 0
    for (const item of this.list.children) {
      item.hidden = (operation !== '' && item.dataset.operation !== operation) || (status !== '' && !item.dataset.status.startsWith(status))
      if (!item.hidden) shown++
    }
    const total = this.list.children.length
    this.root.querySelector('.count').textContent = shown === total ? `(${total})` : `(${shown} of ${total})`
    this.root.querySelector('.empty').hidden = total > 0
  }

  itemOf(entry) {
    const summary = element('summary', {}, [
      element('span', { class: `status s${String(entry.status)[0]}` }, [entry.status]),
      element('span', { class: 'method' }, [entry.method]),
      element('span', { class: 'path' }, [entry.path]),
      element('span', { class: 'meta' }, [`${entry.time.slice(11, 23)} · ${entry.operationId} · ${entry.durationMs.toFixed(1)} ms`]),
    ])
    const details = element('details', {}, [summary, element('div', { class: 'call' })])
    let whole = entry.headers === undefined ? undefined : entry
    details.addEventListener('toggle', async () => {
      if (!details.open) return
      const shown = details.querySelector('.call')
      try {
        whole ??= await this.load(entry.id)
        shown.replaceChildren(...(whole ? this.callOf(whole) : [hint('This call has left the journal (it keeps the most recent ones).')]))
      } catch (error) {
        shown.replaceChildren(hint(`Could not read this call: ${error.message}`))
      }
    })
    return element('li', { 'data-id': entry.id, 'data-operation': entry.operationId, 'data-status': String(entry.status) }, [details])
  }

  callOf(entry) {
    const curl = element('pre', { class: 'curl', hidden: true })
    const copy = button('Copy as curl', () => copyAsCurl(curl, curlOf(entry, this.key())), { class: 'copy' })
    return [
      element('h4', {}, ['Request']),
      element('p', { class: 'line' }, [`${entry.method} ${entry.path}`]),
      ...labelled('query', Object.keys(entry.query).length > 0 ? pairs(entry.query) : undefined),
      ...labelled('headers', entry.headers && pairs(entry.headers)),
      ...labelled('body', entry.requestBody === undefined ? undefined : element('pre', {}, [pretty(entry.requestBody)])),
      element('h4', {}, ['Answer']),
      element('p', { class: 'line' }, [
        element('span', { class: `status s${String(entry.status)[0]}` }, [entry.status]),
        ` at ${entry.time}, in ${entry.durationMs.toFixed(1)} ms`,
        entry.truncated ? ' (a body was cut at 16 KiB)' : '',
      ]),
      ...labelled('errors', entry.responseBody?.errors === undefined ? undefined : element('pre', { class: 'errors' }, [pretty(entry.responseBody.errors)])),
      ...labelled('body', entry.responseBody === undefined ? undefined : element('pre', {}, [pretty(entry.responseBody)])),
      ...labelled('contract violations', entry.violations && element('pre', { class: 'errors' }, [pretty(entry.violations)])),
      element('p', {}, [copy]),
      curl,
    ]
  }
}

const hint = (text) => element('p', { class: 'hint' }, [text])

function labelled(label, content) {
  return content === undefined ? [] : [element('h5', {}, [label]), content]
}

function pairs(record) {
  const rows = Object.entries(record).map(([name, value]) => element('tr', {}, [element('th', {}, [name]), element('td', {}, [Array.isArray(value) ? value.join(', ') : value])]))
  return element('table', { class: 'pairs' }, [element('tbody', {}, rows)])
}

/** The call as a curl command line, with the shown tenant's key in place of the redacted one. */
export function curlOf(entry, key) {
  const query = new URLSearchParams()
  for (const [name, value] of Object.entries(entry.query)) for (const one of [value].flat()) query.append(name, one)
  const url = `${location.origin}${entry.path}${query.size > 0 ? `?${query}` : ''}`
  const parts = ['curl', '-X', entry.method, quote(url)]
  for (const [name, value] of Object.entries(entry.headers ?? {})) {
    if (NOT_REPLAYED.has(name)) continue
    if (name === 'authorization') parts.push('-H', quote(`Authorization: ApiKey ${key}`))
    else if (value !== '[redacted]') parts.push('-H', quote(`${name}: ${value}`))
  }
  if (entry.requestBody !== undefined) parts.push('--data-raw', quote(typeof entry.requestBody === 'string' ? entry.requestBody : JSON.stringify(entry.requestBody)))
  return parts.join(' ')
}

const quote = (text) => `'${text.replaceAll("'", `'\\''`)}'`

/** Shown, and copied where the browser allows it (the clipboard API needs a secure origin: loopback is one). */
async function copyAsCurl(shown, command) {
  shown.textContent = command
  shown.hidden = false
  const copied = await navigator.clipboard?.writeText(command).then(() => true, () => false)
  shown.dataset.copied = String(Boolean(copied))
  shown.title = copied ? 'Copied to the clipboard' : 'Select it and copy it: this browser keeps the clipboard from this page'
}
