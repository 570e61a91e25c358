import type BetterSqlite3 from 'better-sqlite3'
import { inSlices, type Steps } from '../../lib/slices.ts'
import { STEPPED_ROWS } from '../store-backend.ts'

type Database = BetterSqlite3.Database

/**
 * Rows copied or removed in one step. Fewer than a replace writes in one: a copy is counted in
 * rows, whatever their size, and the large messages of a 50 MB state (~5 KB each) made a step of
 * 1,000 hold other calls ~70 ms, one of 250 ~45 ms.
 */
const ROWS_PER_STEP = 250

/** Where a step's copy starts: after this key (rows are copied in key order). */
type Key = { kind: string; id: string }
const FIRST: Key = { kind: '', id: '' }

/**
 * The rows of large snapshots, copied and removed in steps (docs/decisions.md, 2026-11-27). A
 * snapshot is listed (table `snapshots`) only in the transaction that ends its save, so rows
 * copied before no read sees, and a process stopped half-way leaves rows of no snapshot, removed
 * when the file opens. A deleted snapshot is unlisted at once and its rows removed in steps after;
 * a save of the same name waits for them to be gone.
 */
export class SnapshotRows {
  /** Per snapshot (tenant and name as JSON), the removal of its rows under way. */
  private readonly removing = new Map<string, Promise<void>>()
  private readonly countSome: BetterSqlite3.Statement<[string, string]>
  private readonly listed: BetterSqlite3.Statement<[string, string]>

  constructor(private readonly db: Database) {
    db.exec('DELETE FROM snapshot_records WHERE NOT EXISTS (SELECT 1 FROM snapshots s WHERE s.tenant = snapshot_records.tenant AND s.name = snapshot_records.name)')
    this.countSome = db.prepare(`SELECT count(*) FROM (SELECT 1 FROM snapshot_records WHERE tenant = ? AND name = ? LIMIT ${STEPPED_ROWS})`).pluck()
    this.listed = db.prepare('SELECT 1 FROM snapshots WHERE tenant = ? AND name = ?').pluck()
  }

  /** Whether the snapshot holds enough rows to be copied or removed in steps. */
  holdsMany(tenant: string, name: string): boolean {
    return (this.countSome.get(tenant, name) as number) >= STEPPED_ROWS
  }

  isListed(tenant: string, name: string): boolean {
    return this.listed.get(tenant, name) !== undefined
  }

  /** Settles once no rows of a snapshot of that name are being removed. */
  settled(tenant: string, name: string): Promise<void> | undefined {
    return this.removing.get(JSON.stringify([tenant, name]))
  }

  /** The rows kept under `owner` copied into the snapshot, a step at a time. */
  *saved(owner: string, tenant: string, name: string): Steps<void> {
    const copy = this.db.prepare(
      `INSERT INTO snapshot_records SELECT ?, ?, kind, id, seq, record FROM records WHERE tenant = ? AND (kind, id) > (?, ?) ORDER BY kind, id LIMIT ${ROWS_PER_STEP}`,
    )
    const last = this.db.prepare<[string, string], Key>('SELECT kind, id FROM snapshot_records WHERE tenant = ? AND name = ? ORDER BY kind DESC, id DESC LIMIT 1')
    yield* inKeyOrder((after) => copy.run(tenant, name, owner, after.kind, after.id).changes, () => last.get(tenant, name)!)
  }

  /** The snapshot's rows copied under `owner`, a step at a time. */
  *restored(owner: string, tenant: string, name: string): Steps<void> {
    const copy = this.db.prepare(
      `INSERT INTO records SELECT ?, kind, id, seq, record FROM snapshot_records WHERE tenant = ? AND name = ? AND (kind, id) > (?, ?) ORDER BY kind, id LIMIT ${ROWS_PER_STEP}`,
    )
    const last = this.db.prepare<[string], Key>('SELECT kind, id FROM records WHERE tenant = ? ORDER BY kind DESC, id DESC LIMIT 1')
    yield* inKeyOrder((after) => copy.run(owner, tenant, name, after.kind, after.id).changes, () => last.get(owner)!)
  }

  /** The rows of a snapshot no longer listed, removed a step at a time. */
  removeInSteps(tenant: string, name: string): void {
    const key = JSON.stringify([tenant, name])
    const removal = inSlices(this.removal(tenant, name), 1)
      .catch(() => undefined) // what is left goes when the file opens again
      .finally(() => this.removing.delete(key))
    this.removing.set(key, removal)
  }

  private *removal(tenant: string, name: string): Steps<void> {
    const some = this.db.prepare(
      `DELETE FROM snapshot_records WHERE tenant = ? AND name = ? AND (kind, id) IN (SELECT kind, id FROM snapshot_records WHERE tenant = ? AND name = ? LIMIT ${ROWS_PER_STEP})`,
    )
    while (this.db.open && some.run(tenant, name, tenant, name).changes > 0) yield
  }
}

/**
 * A copy in key order, a step at a time: `copy` copies the next ROWS_PER_STEP rows after a key and
 * answers how many it copied, `last` the key copied last; a step of fewer was the last.
 */
function* inKeyOrder(copy: (after: Key) => number, last: () => Key): Steps<void> {
  let after = FIRST
  while (copy(after) === ROWS_PER_STEP) {
    after = last()
    yield
  }
}
