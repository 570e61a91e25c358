import type BetterSqlite3 from 'better-sqlite3'
import { clockFromText, type KeptClock } from '../../clock/clock-setting.ts'
import { groupedPerTick } from './grouped-per-tick.ts'
import { RowOwners, UNDER_AN_OWNER } from './row-owners.ts'
import { SnapshotRows } from './snapshot-rows.ts'
import { removalsBefore, steppedChanges, type SteppedChange } from './stepped-changes.ts'
import type { Change, OverlayRow, RecordKind, SavedStore, SavedTenant, StoreBackend, TenantSeed } from '../store-backend.ts'
import type { KeyRecord } from '../store.ts'

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

/** Every tenant with state: a seed of its own, rows (kept under its own name or another, row-owners.ts) or snapshots. */
const STORED = `SELECT tenant FROM tenants UNION SELECT tenant FROM row_owners UNION SELECT tenant FROM records WHERE NOT (${UNDER_AN_OWNER}) UNION SELECT tenant FROM snapshots`

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
    load: async () => load(db, owners),
    tenant: async (tenant) => load(db, owners, tenant).tenants.get(tenant),
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
        case 'forgetKeyRecords':
          return void dropKeyRecords(tenant)
        case 'touch':
          return void putCall(tenant, change.at)
      }
    },
  }
}

/**
/**
 * Everything stored: with `only`, that tenant's records, snapshots and seed alone. Idempotency
 * records past their time are kept: their time is the tenant's clock's (docs/behaviour.md §8),
 * which a restart does not know, so a key sent again judges them. A tenant with state but no call
 * time yet (a file of an earlier version) counts as called now.
 */
function load(db: Database, owners: RowOwners, only?: string): SavedStore {
  const where = only === undefined ? '' : ' WHERE tenant = ?'
  const params = only === undefined ? [] : [only]
  const tenants = new Map<string, SavedTenant>()
  const entryOf = (tenant: string): SavedTenant => {
    let entry = tenants.get(tenant)
    if (!entry) tenants.set(tenant, (entry = { rows: [], snapshots: [] }))
    return entry
  }
  const rowOf = (row: RowOfTable): OverlayRow => ({ kind: row.kind, id: row.id, seq: row.seq, record: row.record === null ? null : JSON.parse(row.record) })
  for (const { tenant, seed } of db.prepare<unknown[], { tenant: string; seed: string }>(`SELECT tenant, seed FROM tenants${where}`).iterate(...params)) {
    entryOf(tenant).seed = JSON.parse(seed) as TenantSeed
  }
  const rowsOf = owners.tenantOfRows()
  const rowParams = only === undefined ? [] : [owners.ownerOf(only)]
  for (const row of db.prepare<unknown[], RowOfTable>(`SELECT * FROM records${where}`).iterate(...rowParams)) {
    const tenant = only ?? rowsOf(row.tenant)
    if (tenant !== undefined) entryOf(tenant).rows.push(rowOf(row))
  }
  const snapshots = new Map<string, OverlayRow[]>()
  const snapshotQuery = db.prepare<unknown[], { tenant: string; name: string; created_at: string }>(`SELECT tenant, name, created_at FROM snapshots${where} ORDER BY rowid`)
  for (const { tenant, name, created_at } of snapshotQuery.iterate(...params)) {
    const rows: OverlayRow[] = []
    snapshots.set(JSON.stringify([tenant, name]), rows)
    entryOf(tenant).snapshots.push({ name, createdAt: created_at, rows })
  }
  for (const row of db.prepare<unknown[], RowOfTable & { name: string }>(`SELECT * FROM snapshot_records${where}`).iterate(...params)) {
    snapshots.get(JSON.stringify([row.tenant, row.name]))?.push(rowOf(row))
  }
  if (only !== undefined) return { tenants, maxSeq: 0, keyRecords: [] }
  db.prepare(`INSERT OR IGNORE INTO tenant_calls SELECT tenant, ? FROM (${STORED})`).run(Date.now())
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
