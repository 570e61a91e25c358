import type BetterSqlite3 from 'better-sqlite3'
import { clockFromText, type KeptClock } from '../clock/clock-setting.ts'
import { groupedPerTick } from './grouped-per-tick.ts'
import type { Change, OverlayRow, RecordKind, SavedStore, SavedTenant, StoreBackend, TenantSeed } from './store-backend.ts'
import type { KeyRecord } from './store.ts'

type Database = BetterSqlite3.Database

/** Tables of a novu-mock store file (format 1). Rows follow store-backend.ts; a null record is a removal. */
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
`

interface RowOfTable {
  tenant: string
  kind: RecordKind
  id: string
  seq: number
  record: string | null
}

/**
 * The store's backend on an SQLite database opened by store-file.ts (WAL, synchronous=FULL, held
 * locked). The changes of one turn of the event loop are written in one transaction, so 20
 * concurrent writers share one sync of the log; each write waits for that transaction's commit.
 */
export function sqliteBackend(db: Database): StoreBackend {
  const statements = prepare(db)
  const writeAll = db.transaction((changes: readonly Change[]) => {
    for (const change of changes) statements.apply(change)
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
  return {
    kind: 'sqlite',
    load: async () => load(db),
    write(changes) {
      batch.push(...changes)
      return writeThisTick()
    },
    async close() {
      if (closed) return
      if (batch.length > 0) flush()
      closed = true
      db.close()
    },
  }
}

function prepare(db: Database) {
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
  const copyToSnapshot = run('INSERT INTO snapshot_records SELECT tenant, ?, kind, id, seq, record FROM records WHERE tenant = ?')
  const copyFromSnapshot = run('INSERT INTO records SELECT tenant, kind, id, seq, record FROM snapshot_records WHERE tenant = ? AND name = ?')
  const putKeyRecord = run('INSERT OR REPLACE INTO key_records VALUES (?, ?, ?, ?, ?, ?, ?, ?)')
  const keepNewestKeys = run(
    'DELETE FROM key_records WHERE tenant = ? AND rowid <= (SELECT rowid FROM key_records WHERE tenant = ? ORDER BY rowid DESC LIMIT 1 OFFSET ?)',
  )
  const putClock = run('INSERT OR REPLACE INTO clocks VALUES (?, ?)')
  const dropClock = run('DELETE FROM clocks WHERE tenant = ?')
  const putRows = (tenant: string, rows: readonly OverlayRow[]) => {
    for (const { kind, id, record, seq } of rows) {
      const text = record === null ? null : JSON.stringify(record)
      if (seq === undefined) putInPlace(tenant, kind, id, text)
      else putAt(tenant, kind, id, seq, text)
    }
  }
  return {
    apply(change: Change): void {
      const { tenant } = change
      switch (change.type) {
        case 'put':
          return putRows(tenant, change.rows)
        case 'replace':
          dropRows(tenant)
          return putRows(tenant, change.rows)
        case 'createTenant':
          dropRows(tenant)
          putTenant(tenant, JSON.stringify(change.seed))
          return
        case 'saveSnapshot':
          dropSnapshot(tenant, change.name)
          dropSnapshotRows(tenant, change.name)
          addSnapshot(tenant, change.name, change.createdAt)
          copyToSnapshot(change.name, tenant)
          return
        case 'restoreSnapshot':
          dropRows(tenant)
          copyFromSnapshot(tenant, change.name)
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
      }
    },
  }
}

/**
 * Everything stored. Idempotency records past their time are kept: their time is the tenant's
 * clock's (docs/behaviour.md §8), which a restart does not know, so a key sent again judges them.
 */
function load(db: Database): SavedStore {
  const tenants = new Map<string, SavedTenant>()
  const entryOf = (tenant: string): SavedTenant => {
    let entry = tenants.get(tenant)
    if (!entry) tenants.set(tenant, (entry = { rows: [], snapshots: [] }))
    return entry
  }
  const rowOf = (row: RowOfTable): OverlayRow => ({ kind: row.kind, id: row.id, seq: row.seq, record: row.record === null ? null : JSON.parse(row.record) })
  for (const { tenant, seed } of db.prepare<[], { tenant: string; seed: string }>('SELECT tenant, seed FROM tenants').iterate()) {
    entryOf(tenant).seed = JSON.parse(seed) as TenantSeed
  }
  for (const row of db.prepare<[], RowOfTable>('SELECT * FROM records').iterate()) entryOf(row.tenant).rows.push(rowOf(row))
  const snapshots = new Map<string, OverlayRow[]>()
  const snapshotQuery = db.prepare<[], { tenant: string; name: string; created_at: string }>('SELECT tenant, name, created_at FROM snapshots ORDER BY rowid')
  for (const { tenant, name, created_at } of snapshotQuery.iterate()) {
    const rows: OverlayRow[] = []
    snapshots.set(JSON.stringify([tenant, name]), rows)
    entryOf(tenant).snapshots.push({ name, createdAt: created_at, rows })
  }
  for (const row of db.prepare<[], RowOfTable & { name: string }>('SELECT * FROM snapshot_records').iterate()) {
    snapshots.get(JSON.stringify([row.tenant, row.name]))?.push(rowOf(row))
  }
  const maxSeq = db.prepare<[], number>('SELECT max(coalesce((SELECT max(seq) FROM records), 0), coalesce((SELECT max(seq) FROM snapshot_records), 0))').pluck().get() ?? 0
  const keyQuery = db.prepare<[], Omit<KeyRecord, 'expiresAt'> & { tenant: string; expires_at: number }>('SELECT * FROM key_records ORDER BY rowid')
  const keyRecords = keyQuery.all().map(({ tenant, expires_at, key, method, path, print, status, answer }) => ({
    tenant,
    record: { key, method, path, print, status, answer, expiresAt: expires_at },
  }))
  const clocks = new Map<string, KeptClock>()
  for (const { tenant, clock } of db.prepare<[], { tenant: string; clock: string }>('SELECT tenant, clock FROM clocks').iterate()) {
    const kept = clockFromText(clock)
    if (kept !== undefined) clocks.set(tenant, kept)
  }
  return { tenants, maxSeq, keyRecords, clocks }
}
