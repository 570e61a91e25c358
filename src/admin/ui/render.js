// Rendering the tenant's state: DOM nodes and textContent only, never HTML from data (records are
// whatever a client or PUT /__admin/state stored).

const PAGE_SIZE = 20
const pages = new Map()

/** Empties the current page of every table, for a new tenant. */
export function resetPages() {
  pages.clear()
}

/**
 * Fills a section's table with `rows`, one page of them. `columns`: `{ title, value(row),
 * className? }`; `attributes(row)`: data attributes of the row, so a row can be found by id.
 */
export function renderTable(section, rows, columns, attributes = () => ({}), rowClass = () => '') {
  section.querySelector('.count').textContent = `(${rows.length})`
  const pageCount = Math.max(1, Math.ceil(rows.length / PAGE_SIZE))
  const page = Math.min(pages.get(section.id) ?? 0, pageCount - 1)
  pages.set(section.id, page)
  const table = section.querySelector('table')
  const head = element('tr', {}, columns.map((column) => element('th', {}, [column.title])))
  const body = rows.slice(page * PAGE_SIZE, (page + 1) * PAGE_SIZE).map((row) => {
    const cells = columns.map((column) => cell(column, row))
    return element('tr', { ...attributes(row), class: rowClass(row) }, cells)
  })
  table.replaceChildren(element('thead', {}, [head]), element('tbody', {}, body))
  renderPager(section, page, pageCount, () => renderTable(section, rows, columns, attributes, rowClass))
}

function cell(column, row) {
  const value = column.value(row)
  if (value instanceof Node) return element('td', { class: column.className ?? '' }, [value])
  if (typeof value === 'boolean') return element('td', { class: `${column.className ?? ''} ${value ? 'yes' : 'no'}` }, [value ? 'yes' : 'no'])
  return element('td', { class: column.className ?? '' }, [value ?? ''])
}

function renderPager(section, page, pageCount, rerender) {
  const pager = section.querySelector('.pager')
  if (pageCount === 1) return pager.replaceChildren()
  const turn = (label, to) => {
    const button = element('button', { type: 'button', class: label.toLowerCase() }, [label])
    button.disabled = to < 0 || to >= pageCount
    button.addEventListener('click', () => {
      pages.set(section.id, to)
      rerender()
    })
    return button
  }
  pager.replaceChildren(turn('Previous', page - 1), element('span', {}, [`page ${page + 1} of ${pageCount}`]), turn('Next', page + 1))
}

/** The journal's calls as they arrive, newest first, the last `limit` of them. */
export function renderCall(list, entry, limit = 20) {
  const line = `${entry.time.slice(11, 23)} ${entry.status} ${entry.method} ${entry.path} (${entry.operationId})`
  list.prepend(element('li', {}, [line]))
  while (list.children.length > limit) list.lastElementChild.remove()
}

export function element(name, attributes, children = []) {
  const node = document.createElement(name)
  for (const [key, value] of Object.entries(attributes)) if (value !== '' && value !== undefined) node.setAttribute(key, value)
  node.append(...children.map((child) => (child instanceof Node ? child : String(child))))
  return node
}
