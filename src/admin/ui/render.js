// Rendering: DOM nodes and textContent only, never HTML from data (records are whatever a client
// or PUT /__admin/state stored).

/** How long a changed value stays highlighted (the CSS animation of `.changed` lasts as long). */
const HIGHLIGHT_MS = 4000

export function element(name, attributes = {}, children = []) {
  const node = document.createElement(name)
  for (const [key, value] of Object.entries(attributes)) if (value !== '' && value !== undefined && value !== false) node.setAttribute(key, value === true ? '' : value)
  node.append(...children.filter((child) => child !== undefined).map((child) => (child instanceof Node ? child : String(child))))
  return node
}

/** `label`: text, a node, or a list of them. */
export function button(label, onClick, attributes = {}) {
  const node = element('button', { type: 'button', ...attributes }, [label].flat())
  node.addEventListener('click', onClick)
  return node
}

/** JSON as people read it. */
export const pretty = (value) => JSON.stringify(value, null, 2)

/**
 * One table of records. `columns`: `{ title, value(row), className? }`, a value being text, a
 * number, a boolean (shown yes/no) or a node. Each refresh hands over every row: a cell whose text
 * differs from the last refresh is highlighted for a few seconds; the search narrows the rows to
 * those whose JSON holds its text; rows are shown `pageSize` at a time (all when `pageSize` is 0).
 */
export class RecordTable {
  constructor(section, { columns, idOf, attributes = () => ({}), rowClass = () => '', onOpen, pageSize = 50 }) {
    Object.assign(this, { section, columns, idOf, attributes, rowClass, onOpen, pageSize })
    this.rows = []
    this.page = 0
    this.search = ''
    this.selected = undefined
    /** Each row's cell texts at the last refresh, by row id. */
    this.texts = new Map()
    /** When a cell's text last changed, by `<row id>\t<column>`. */
    this.changedAt = new Map()
  }

  /** A refresh: every row of the table now. */
  show(rows) {
    const now = performance.now()
    const texts = new Map()
    for (const row of rows) {
      const id = this.idOf(row)
      const cells = this.columns.map((column) => textOf(column.value(row)))
      const before = this.texts.get(id)
      for (let i = 0; before && i < cells.length; i++) if (cells[i] !== before[i]) this.changedAt.set(`${id}\t${i}`, now)
      texts.set(id, cells)
    }
    this.texts = texts
    for (const [cell, at] of this.changedAt) if (now - at > HIGHLIGHT_MS) this.changedAt.delete(cell)
    this.rows = rows
    // A hidden tab is drawn when it is shown (by filter()), not at every refresh.
    if (!this.section.hidden) this.render()
  }

  /** Forgets the rows and what changed: another tenant is shown. */
  clear() {
    this.texts.clear()
    this.changedAt.clear()
    this.page = 0
    this.selected = undefined
    this.show([])
  }

  /** Narrows the rows to the search's (back to the first page when it changed), and draws them. */
  filter(text) {
    const search = text.trim().toLowerCase()
    if (search !== this.search) this.page = 0
    this.search = search
    this.render()
  }

  /** The rows the search leaves. */
  matching() {
    if (this.search === '') return this.rows
    return this.rows.filter((row) => JSON.stringify(row).toLowerCase().includes(this.search))
  }

  render() {
    const rows = this.matching()
    const pageCount = this.pageSize === 0 ? 1 : Math.max(1, Math.ceil(rows.length / this.pageSize))
    this.page = Math.min(this.page, pageCount - 1)
    const shown = this.pageSize === 0 ? rows : rows.slice(this.page * this.pageSize, (this.page + 1) * this.pageSize)
    const head = element('tr', {}, this.columns.map((column) => element('th', { scope: 'col' }, [column.title])))
    const now = performance.now()
    const body = shown.map((row) => this.rowOf(row, now))
    this.section.querySelector('table').replaceChildren(element('thead', {}, [head]), element('tbody', {}, body))
    if (this.pageSize !== 0) this.renderPager(rows.length, pageCount)
  }

  rowOf(row, now) {
    const id = this.idOf(row)
    const cells = this.columns.map((column, i) => {
      const cell = cellOf(column, column.value(row))
      const at = this.changedAt.get(`${id}\t${i}`)
      if (at !== undefined) {
        cell.classList.add('changed')
        // Re-rendered cells carry on the fade where it was, rather than flash anew.
        cell.style.animationDelay = `${-(now - at)}ms`
      }
      return cell
    })
    const classes = [this.rowClass(row), id === this.selected ? 'selected' : ''].filter(Boolean).join(' ')
    const tr = element('tr', { ...this.attributes(row), 'data-id': id, class: classes, tabindex: '0' }, cells)
    const open = () => {
      this.selected = id
      this.render()
      this.onOpen(row)
    }
    tr.addEventListener('click', open)
    tr.addEventListener('keydown', (event) => event.key === 'Enter' && open())
    return tr
  }

  renderPager(total, pageCount) {
    const pager = this.section.querySelector('.pager')
    if (pageCount === 1) return pager.replaceChildren(total === 0 ? element('span', {}, [this.search ? 'no row holds this text' : 'none']) : '')
    const turn = (label, to) => {
      const node = button(label, () => {
        this.page = to
        this.render()
      }, { class: label.toLowerCase() })
      node.disabled = to < 0 || to >= pageCount
      return node
    }
    const first = this.page * this.pageSize + 1
    const last = Math.min(total, first + this.pageSize - 1)
    pager.replaceChildren(turn('Previous', this.page - 1), element('span', {}, [`${first}–${last} of ${total}`]), turn('Next', this.page + 1))
  }
}

function textOf(value) {
  if (value instanceof Node) return value.textContent
  if (typeof value === 'boolean') return value ? 'yes' : 'no'
  return value === undefined || value === null ? '' : String(value)
}

function cellOf(column, value) {
  const classes = [column.className, typeof value === 'boolean' ? (value ? 'yes' : 'no') : ''].filter(Boolean).join(' ')
  return element('td', { class: classes }, [value instanceof Node ? value : textOf(value)])
}
