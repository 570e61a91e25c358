// The detail pane: one record of a table, kept up to date as the tenant changes.
import { pretty } from '../render.js'

export class DetailPane {
  /** The record open: its table and id. */
  #open

  /** `views` say how a table's rows are named; `tables` are unselected when the pane closes. */
  constructor(root, views, tables) {
    Object.assign(this, { root, views, tables })
    root.querySelector('.close').addEventListener('click', () => this.close())
  }

  open(table, row) {
    this.#open = { table, id: this.views[table].idOf(row) }
    this.root.hidden = false
    this.root.querySelector('h3').textContent = this.views[table].titleOf(row)
    this.root.querySelector('pre').textContent = pretty(row)
  }

  /** The open record as the tenant now has it, flashed when it changed. */
  refresh(rowsByTable) {
    if (!this.#open) return
    const { table, id } = this.#open
    const row = rowsByTable[table].find((r) => this.views[table].idOf(r) === id)
    const pre = this.root.querySelector('pre')
    const text = row ? pretty(row) : 'No longer in this tenant (or not on this page).'
    if (text === pre.textContent) return
    pre.textContent = text
    // Restarted by taking the class off and on again (reading offsetWidth makes the browser see both).
    pre.classList.remove('changed')
    void pre.offsetWidth
    pre.classList.add('changed')
  }

  /** A record belongs to its own tab: its JSON would otherwise sit beside another table's rows. */
  closeUnlessOn(table) {
    if (this.#open && this.#open.table !== table) this.close()
  }

  close() {
    if (this.#open) {
      this.tables[this.#open.table].selected = undefined
      this.tables[this.#open.table].render()
    }
    this.#open = undefined
    this.root.hidden = true
  }
}
