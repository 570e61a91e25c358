import type BetterSqlite3 from 'better-sqlite3'
import { checkedSteps, inSlices, type Steps } from '../../lib/slices.ts'
import { STEPPED_ROWS, type OverlayRow } from '../store-backend.ts'

type Database = BetterSqlite3.Database

/** Rows written, copied or removed in one step: a few milliseconds. */
const ROWS_PER_STEP = 1_000

/** An owner's name starts with this, which no tenant name has. */
const OWNER_MARK = '\u0001'
/** SQL: the rows of `records` kept under an owner's name (a range of the primary key, not a scan). */
export const UNDER_AN_OWNER = 'tenant >= char(1) AND tenant < char(2)'

/**
 * Under which name a tenant's rows are kept in `records`. Its own name, until a large state
 * replaces them: the new rows are then written in steps under a fresh name (an owner), which no
 * read sees until one small transaction points the tenant at it, so the replace is still all or
 * nothing; the old rows are then removed in steps. An owner starts with U+0001, which no tenant
 * name has (an HTTP header cannot carry it).
 */
export class RowOwners {
  private readonly owners = new Map<string, string>()
  private readonly point: BetterSqlite3.Statement<[string, string]>
  private readonly unpoint: BetterSqlite3.Statement<[string]>
  private readonly countSome: BetterSqlite3.Statement<[string]>

  constructor(private readonly db: Database) {
    for (const { tenant, owner } of db.prepare<[], { tenant: string; owner: string }>('SELECT tenant, owner FROM row_owners').iterate()) this.owners.set(tenant, owner)
    this.point = db.prepare('INSERT OR REPLACE INTO row_owners VALUES (?, ?)')
    this.unpoint = db.prepare('DELETE FROM row_owners WHERE tenant = ?')
    this.countSome = db.prepare(`SELECT count(*) FROM (SELECT 1 FROM records WHERE tenant = ? LIMIT ${STEPPED_ROWS})`).pluck()
    // Rows a stepped replace left when the process stopped: a new owner not pointed at yet, or an old one not yet emptied.
    db.exec(`DELETE FROM records WHERE ${UNDER_AN_OWNER} AND tenant NOT IN (SELECT owner FROM row_owners)`)
    db.exec('DELETE FROM records WHERE tenant IN (SELECT tenant FROM row_owners)')
  }

  ownerOf(tenant: string): string {
    return this.owners.get(tenant) ?? tenant
  }

  /**
   * Whose rows those kept under a name are: the name itself when it is a tenant's own; none for the
   * rows of a replace not finished, or of one replaced and not yet removed.
   */
  tenantOfRows(): (name: string) => string | undefined {
    const tenantOf = new Map([...this.owners].map(([tenant, owner]) => [owner, tenant]))
    return (name) => tenantOf.get(name) ?? (name.startsWith(OWNER_MARK) || this.ownerOf(name) !== name ? undefined : name)
  }

  /** The tenant is gone: its name owns its rows again (none). */
  forget(tenant: string): void {
    this.unpoint.run(tenant)
    this.owners.delete(tenant)
  }

  /** Whether the tenant holds enough rows that replacing them is done in steps. */
  holdsMany(tenant: string): boolean {
    return (this.countSome.get(this.ownerOf(tenant)) as number) >= STEPPED_ROWS
  }

  /**
   * Writes the tenant's new rows under a fresh owner, a step at a time (`fill`), then runs
   * `transact`, which points the tenant at them (`point`) in one transaction with whatever goes
   * with it; the old rows are removed in steps after. `open` throws once the file is closed.
   */
  async replaceInSteps(tenant: string, fill: (owner: string) => Steps<void>, transact: (point: () => void) => void, open: () => void): Promise<void> {
    const owner = `${OWNER_MARK}${tenant}${OWNER_MARK}${Date.now().toString(36)}${Math.random().toString(36).slice(2)}`
    await inSlices(checkedSteps(fill(owner), open), 1)
    const old = this.ownerOf(tenant)
    open()
    try {
      transact(() => {
        this.point.run(tenant, owner)
        this.owners.set(tenant, owner)
      })
    } catch (error) {
      if (old === tenant) this.owners.delete(tenant)
      else this.owners.set(tenant, old)
      throw error
    }
    void inSlices(this.removal(tenant, owner, old), 1).catch(() => undefined)
  }

  /** `rows` written under `owner` by `write`, a step of them per transaction. */
  *written(owner: string, rows: readonly OverlayRow[], write: (owner: string, row: OverlayRow) => void): Steps<void> {
    const writeSome = this.db.transaction((some: readonly OverlayRow[]) => {
      for (const row of some) write(owner, row)
    })
    for (let from = 0; from < rows.length; from += ROWS_PER_STEP) {
      writeSome(rows.slice(from, from + ROWS_PER_STEP))
      yield
    }
  }

  /**
   * An old owner's rows removed a step at a time, while the tenant's rows are still `owner`'s (a
   * tenant deleted meanwhile took them all); what a stopped process left goes when it opens again.
   */
  private *removal(tenant: string, owner: string, old: string): Steps<void> {
    const some = this.db.prepare(`DELETE FROM records WHERE tenant = ? AND (kind, id) IN (SELECT kind, id FROM records WHERE tenant = ? LIMIT ${ROWS_PER_STEP})`)
    while (this.db.open && this.owners.get(tenant) === owner && some.run(old, old).changes > 0) yield
  }
}
