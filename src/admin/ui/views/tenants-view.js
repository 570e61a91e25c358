// The tenants the server holds (GET /__admin/tenants), so that no key has to be typed.
import { button, element } from '../render.js'

/** `pick(key)` shows a tenant; `current` is the key shown now. */
export function renderTenants(root, tenants, { current, pick }) {
  root.querySelector('.count').textContent = `(${tenants.length})`
  const items = tenants.map((tenant) => {
    const notes = [`${tenant.calls} call${tenant.calls === 1 ? '' : 's'}`, tenant.created ? 'created' : '', tenant.kept ? 'kept' : 'droppable']
    const pickIt = button([element('span', { class: 'key' }, [tenant.apiKey]), element('span', { class: 'hint' }, [notes.filter(Boolean).join(' · ')])], () => pick(tenant.apiKey))
    pickIt.title = tenant.kept ? 'Kept: has state of its own; released at the tenant bound, it loses its changes unless --db or --redis stores them' : 'Droppable: only read so far; released at the tenant bound, it comes back identical from its seed'
    return element('li', { 'data-key': tenant.apiKey, 'aria-current': tenant.apiKey === current ? 'true' : undefined }, [pickIt])
  })
  if (items.length === 0) items.push(element('li', { class: 'hint' }, ['None yet: make a call with Authorization: ApiKey <key>.']))
  root.querySelector('ul').replaceChildren(...items)
}
