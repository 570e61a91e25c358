// The Control tab: reset, the tenant's time, snapshots, fault rules and verify, each through its admin route.
import { CallFailed } from '../api.js'
import { button, element, pretty } from '../render.js'

const $ = (id) => document.getElementById(id)

/**
 * Wires the tab's forms. `call(path, options)` is an admin call as the shown tenant;
 * `act(done, action)` runs a change, tells its outcome and re-reads the tenant.
 */
export function wireControl({ call, act }) {
  $('reset').addEventListener('click', () => act('reset to the seed', () => call('/__admin/reset', { method: 'POST' })))

  $('clock-freeze').addEventListener('click', () =>
    act('time frozen', async () => {
      const { now } = await call('/__admin/clock')
      return call('/__admin/clock', { method: 'PUT', body: { now, frozen: true } })
    }),
  )
  $('clock-form').addEventListener('submit', (event) => {
    event.preventDefault()
    const select = $('clock-advance')
    act(`time advanced ${select.selectedOptions[0].textContent}`, () => call('/__admin/clock/advance', { method: 'POST', body: { ms: Number(select.value) } }))
  })
  $('clock-real').addEventListener('click', () => act('back on real time', () => call('/__admin/clock', { method: 'DELETE' })))

  $('snapshot-form').addEventListener('submit', (event) => {
    event.preventDefault()
    const name = $('snapshot-name').value.trim()
    act(`snapshot ${name} taken`, () => call('/__admin/snapshots', { method: 'POST', body: { name } }))
  })

  $('fault-form').addEventListener('submit', (event) => {
    event.preventDefault()
    const preset = $('fault-preset').value
    const operationId = $('fault-operation').value
    const rule = operationId === '' ? { preset } : { preset, match: { operationId } }
    act(`fault rule ${preset} added`, () => call('/__admin/faults', { method: 'POST', body: rule }))
  })

  $('verify-form').addEventListener('submit', (event) => {
    event.preventDefault()
    void verify(call)
  })
}

/** The tenant's time, snapshots and fault rules, read with `call`. */
export async function loadControl(call) {
  const [clock, { snapshots }, { faults }] = await Promise.all([call('/__admin/clock'), call('/__admin/snapshots'), call('/__admin/faults')])
  return { clock, snapshots, faults }
}

/** Shows the tenant's time, snapshots and fault rules (GET /__admin/clock, /__admin/snapshots and /__admin/faults). */
export function renderControl({ clock, snapshots, faults }, { call, act }) {
  $('clock-now').textContent = `${clock.now} · ${clock.frozen ? 'frozen' : 'running'}`
  $('clock-now').dataset.frozen = String(clock.frozen)
  $('snapshots').replaceChildren(
    ...snapshots.map((snapshot) => {
      const path = `/__admin/snapshots/${encodeURIComponent(snapshot.name)}`
      return element('li', { 'data-name': snapshot.name }, [
        element('span', { class: 'name' }, [snapshot.name]),
        element('span', { class: 'hint' }, [`${snapshot.createdAt.slice(11, 19)} · ${snapshot.counts.messages} messages`]),
        button('Restore', () => act(`snapshot ${snapshot.name} restored`, () => call(`${path}/restore`, { method: 'POST' })), { class: 'restore' }),
        button('Delete', () => act(`snapshot ${snapshot.name} deleted`, () => call(path, { method: 'DELETE' })), { class: 'delete' }),
      ])
    }),
  )
  $('faults').replaceChildren(
    ...faults.map((rule) =>
      element('li', { 'data-id': rule.id }, [
        element('span', { class: 'name' }, [rule.preset ?? 'custom']),
        element('span', { class: 'hint' }, [`${rule.match.operationId ?? 'every operation'} · ${rule.applied} applied of ${rule.matched} matched`]),
        button('Remove', () => act(`fault rule ${rule.preset ?? rule.id} removed`, () => call(`/__admin/faults/${encodeURIComponent(rule.id)}`, { method: 'DELETE' })), { class: 'delete' }),
      ]),
    ),
  )
}

/** Runs the expectation and shows the answer as the server gave it: 200 when it holds, 417 with what was seen when not. */
async function verify(call) {
  const answer = $('verify-answer')
  const expectation = { operationId: $('verify-operation').value, [$('verify-mode').value]: Number($('verify-count').value) }
  const bodyMatches = $('verify-body').value.trim()
  answer.hidden = false
  answer.className = 'answer'
  if (bodyMatches !== '') {
    try {
      expectation.bodyMatches = JSON.parse(bodyMatches)
    } catch (error) {
      answer.classList.add('failed')
      return void (answer.textContent = `bodyMatches is not JSON: ${error.message}`)
    }
  }
  try {
    const result = await call('/__admin/requests/verify', { method: 'POST', body: expectation })
    answer.classList.add('held')
    answer.textContent = `200: the expectation holds\n${pretty(result)}`
  } catch (error) {
    answer.classList.add('failed')
    answer.textContent = error instanceof CallFailed ? `${error.message}\n${pretty(error.body?.ctx ?? error.body)}` : String(error)
  }
}
