import type BetterSqlite3 from 'better-sqlite3'
import { groupedPerTick } from './grouped-per-tick.ts'
import { RowOwners } from './row-owners.ts'
import { loadSaved, STORED } from './sqlite-load.ts'
import { SnapshotRows } from './snapshot-rows.ts'
import { removalsBefore, steppedChanges, type SteppedChange } from './stepped-changes.ts'
import type { Change, OverlayRow, StoreBackend } from '../store-backend.ts'

type Database = BetterSqlite3.Database

/** Tables of a novu-mock store file (format 2). Rows follow store-backend.ts; a null record is a removal. */
export const SCHEMA = `
CREATE TABLE IF NOT EXISTS meta (name TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS tenants (tenant TEXT PRIMARY KEY, seed TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS records (
  tenant TEXT NOT NULL, kind TEXT NOT NULL, id TEXT NOT NULL, seq INTEGER NOT NULL, record TEXT,
  PRIMARY KEY (tenant, kind, id)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS snapshots (tenant TEXT NOT NULL, name TEXT NOT NULL, created_at TEXT NOT NULL, UNIQUE (tenant, name));
CREATE TABLE IF NOT EXISTS snapshot_records (
  tenant TEXT NOT NULL, name TEXT NOT NULL, kind TEXT NOT NULL, id TEXT NOT NULL, seq INTEGER NOT NULL, record TEXT,
  PRIMARY KEY (tenant, name, kind, id)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS key_records (
  tenant TEXT NOT NULL, key TEXT NOT NULL, method TEXT NOT NULL, path TEXT NOT NULL, print TEXT NOT NULL,
  status INTEGER NOT NULL, answer TEXT NOT NULL, expires_at INTEGER NOT NULL, UNIQUE (tenant, key));
CREATE INDEX IF NOT EXISTS key_records_by_tenant ON key_records (tenant);
CREATE TABLE IF NOT EXISTS clocks (tenant TEXT PRIMARY KEY, clock TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS tenant_calls (tenant TEXT PRIMARY KEY, called_at INTEGER NOT NULL) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS row_owners (tenant TEXT PRIMARY KEY, owner TEXT NOT NULL) WITHOUT ROWID;
`

/**
 * The store's backend on an SQLite database opened by store-file.ts (WAL, synchronous=FULL, held
 * locked). The changes of one turn of the event loop are written in one transaction, so 20
 * concurrent writers share one sync of the log; each write waits for that transaction's commit.
 */
export function sqliteBackend(db: Database): StoreBackend {
  const owners = new RowOwners(db)
  const snapshots = new SnapshotRows(db)
  const statements = prepare(db, owners)
  const writeAll = db.transaction((changes: readonly Change[]) => {
    for (const change of changes) statements.apply(change)
  })
  const expireAll = db.transaction((tenants: readonly string[]) => {
    for (const tenant of tenants) statements.drop(tenant)
  })
  let batch: Change[] = []
  let closed = false
  const flush = () => {
    const changes = batch
    batch = []
    // Written already, by `close`, which flushes what this turn had gathered.
    if (changes.length === 0) return
    if (closed) throw new Error('the store file is closed')
    writeAll(changes)
  }
  const writeThisTick = groupedPerTick(async () => flush())
  const isOpen = () => {
    if (closed) throw new Error('the store file is closed')
  }
  const steppedOf = steppedChanges(owners, snapshots, statements, isOpen)
  /** A change that moves many rows, written in steps; the write's other changes in the transaction that makes it. */
  const writeInSteps = async (stepped: SteppedChange, before: readonly Change[], after: readonly Change[]) => {
    if (batch.length > 0) await writeThisTick()
    await stepped((made) => {
      isOpen()
      db.transaction(() => {
        before.forEach(statements.apply)
        made()
        after.forEach(statements.apply)
      })()
    })
  }
  const write = (changes: readonly Change[]): Promise<void> => {
    const removal = removalsBefore(snapshots, changes)
    if (removal) return removal.then(() => write(changes))
    for (let i = 0; i < changes.length; i++) {
      const stepped = steppedOf(changes[i]!, i === 0)
      if (stepped) return writeInSteps(stepped, changes.slice(0, i), changes.slice(i + 1))
    }
    batch.push(...changes)
    return writeThisTick()
  }
  return {
    kind: 'sqlite',
    load: async () => loadSaved(db, owners),
    tenant: async (tenant) => loadSaved(db, owners, tenant).tenants.get(tenant),
    storedTenants: async () => db.prepare<[], number>(`SELECT count(*) FROM (${STORED})`).pluck().get() ?? 0,
    async expire(before) {
      // What this turn gathered is written first, by its own grouped write: a tenant it touched is not expired.
      await writeThisTick()
      const gone = db.prepare<[number], string>('SELECT tenant FROM tenant_calls WHERE called_at < ?').pluck().all(before)
      if (gone.length > 0) expireAll(gone)
      return gone
    },
    write,
    async close() {
      if (closed) return
      if (batch.length > 0) flush()
      closed = true
      db.close()
    },
  }
}

function prepare(db: Database, owners: RowOwners) {
  const run = (sql: string) => {
    const statement = db.prepare(sql)
    return (...params: unknown[]) => statement.run(...params)
  }
  const putInPlace = run('INSERT INTO records VALUES (?, ?, ?, 0, ?) ON CONFLICT DO UPDATE SET record = excluded.record')
  const putAt = run('INSERT INTO records VALUES (?, ?, ?, ?, ?) ON CONFLICT DO UPDATE SET record = excluded.record, seq = excluded.seq')
  const dropRows = run('DELETE FROM records WHERE tenant = ?')
  const putTenant = run('INSERT OR REPLACE INTO tenants VALUES (?, ?)')
  const dropSnapshot = run('DELETE FROM snapshots WHERE tenant = ? AND name = ?')
  const dropSnapshotRows = run('DELETE FROM snapshot_records WHERE tenant = ? AND name = ?')
  const addSnapshot = run('INSERT INTO snapshots (tenant, name, created_at) VALUES (?, ?, ?)')
  const copyToSnapshot = run('INSERT INTO snapshot_records SELECT ?, ?, kind, id, seq, record FROM records WHERE tenant = ?')
  const copyFromSnapshot = run('INSERT INTO records SELECT ?, kind, id, seq, record FROM snapshot_records WHERE tenant = ? AND name = ?')
  const putKeyRecord = run('INSERT OR REPLACE INTO key_records VALUES (?, ?, ?, ?, ?, ?, ?, ?)')
  const keepNewestKeys = run(
    'DELETE FROM key_records WHERE tenant = ? AND rowid <= (SELECT rowid FROM key_records WHERE tenant = ? ORDER BY rowid DESC LIMIT 1 OFFSET ?)',
  )
  const putClock = run('INSERT OR REPLACE INTO clocks VALUES (?, ?)')
  const dropClock = run('DELETE FROM clocks WHERE tenant = ?')
  const putCall = run('INSERT OR REPLACE INTO tenant_calls VALUES (?, ?)')
  const dropKeyRecords = run('DELETE FROM key_records WHERE tenant = ?')
  const restampKeyRecords = run('UPDATE key_records SET expires_at = ? WHERE tenant = ?')
  const dropTenant = ['tenants', 'records', 'snapshots', 'snapshot_records', 'key_records', 'tenant_calls', 'clocks'].map((table) => run(`DELETE FROM ${table} WHERE tenant = ?`))
  /** One row under `owner`: the tenant's name, or the name its rows are kept under. */
  const putRow = (owner: string, { kind, id, record, seq }: OverlayRow) => {
    const text = record === null ? null : JSON.stringify(record)
    if (seq === undefined) putInPlace(owner, kind, id, text)
    else putAt(owner, kind, id, seq, text)
  }
  const putRows = (owner: string, rows: readonly OverlayRow[]) => {
    for (const row of rows) putRow(owner, row)
  }
  return {
    putRow,
    listSnapshot: addSnapshot,
    unlistSnapshot: dropSnapshot,
    /** Everything stored of the tenant goes. */
    drop(tenant: string): void {
      dropRows(owners.ownerOf(tenant))
      for (const remove of dropTenant) remove(tenant)
      owners.forget(tenant)
    },
    apply(change: Change): void {
      const { tenant } = change
      const owner = owners.ownerOf(tenant)
      switch (change.type) {
        case 'put':
          return putRows(owner, change.rows)
        case 'replace':
          dropRows(owner)
          return putRows(owner, change.rows)
        case 'createTenant':
          dropRows(owner)
          putTenant(tenant, JSON.stringify(change.seed))
          return
        case 'saveSnapshot':
          dropSnapshot(tenant, change.name)
          dropSnapshotRows(tenant, change.name)
          addSnapshot(tenant, change.name, change.createdAt)
          copyToSnapshot(tenant, change.name, owner)
          return
        case 'restoreSnapshot':
          dropRows(owner)
          copyFromSnapshot(owner, tenant, change.name)
          return
        case 'deleteSnapshot':
          dropSnapshot(tenant, change.name)
          dropSnapshotRows(tenant, change.name)
          return
        case 'keyRecord': {
          const { key, method, path, print, status, answer, expiresAt } = change.record
          putKeyRecord(tenant, key, method, path, print, status, answer, expiresAt)
          keepNewestKeys(tenant, tenant, change.keep)
          return
        }
        case 'clock':
          if (change.clock === undefined) dropClock(tenant)
          else putClock(tenant, JSON.stringify(change.clock))
          return
        case 'faultRules':
          return // not stored with --db (docs/behaviour.md §3): the store never sends it here
        case 'forgetKeyRecords':
          return void dropKeyRecords(tenant)
        case 'restampKeyRecords':
          return void restampKeyRecords(change.expiresAt, tenant)
        case 'touch':
          return void putCall(tenant, change.at)
      }
    },
  }
}
