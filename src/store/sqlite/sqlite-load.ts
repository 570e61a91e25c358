import type BetterSqlite3 from 'better-sqlite3'
import { clockFromText, type KeptClock } from '../../clock/clock-setting.ts'
import { UNDER_AN_OWNER, type RowOwners } from './row-owners.ts'
import type { OverlayRow, RecordKind, SavedStore, SavedTenant, TenantSeed } from '../store-backend.ts'
import type { KeyRecord } from '../store.ts'

/** Every tenant with state: a seed of its own, rows (kept under its own name or another, row-owners.ts) or snapshots. */
export const STORED = `SELECT tenant FROM tenants UNION SELECT tenant FROM row_owners UNION SELECT tenant FROM records WHERE NOT (${UNDER_AN_OWNER}) UNION SELECT tenant FROM snapshots`

interface RowOfTable {
  tenant: string
  kind: RecordKind
  id: string
  seq: number
  record: string | null
}

/**
 * Everything stored: with `only`, that tenant's records, snapshots and seed alone. Idempotency
 * records past their time are kept: their time is the tenant's clock's (docs/behaviour.md §8),
 * which a restart does not know, so a key sent again judges them. A tenant with state but no call
 * time yet (a file of an earlier version) counts as called now.
 */
export function loadSaved(db: BetterSqlite3.Database, owners: RowOwners, only?: string): SavedStore {
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
  // Read whole, a tenant of key records alone is read on its first call (`only`), as a released one is.
  const keyQuery = db.prepare<unknown[], Omit<KeyRecord, 'expiresAt'> & { tenant: string; expires_at: number }>(`SELECT * FROM key_records${where} ORDER BY rowid`)
  for (const { tenant, expires_at, key, method, path, print, status, answer } of keyQuery.iterate(...params)) {
    const entry = only === undefined ? tenants.get(tenant) : entryOf(tenant)
    if (entry) (entry.keyRecords ??= []).push({ key, method, path, print, status, answer, expiresAt: expires_at })
  }
  if (only !== undefined) return { tenants, maxSeq: 0 }
  db.prepare(`INSERT OR IGNORE INTO tenant_calls SELECT tenant, ? FROM (${STORED})`).run(Date.now())
  const maxSeq = db.prepare<[], number>('SELECT max(coalesce((SELECT max(seq) FROM records), 0), coalesce((SELECT max(seq) FROM snapshot_records), 0))').pluck().get() ?? 0
  const clocks = new Map<string, KeptClock>()
  for (const { tenant, clock } of db.prepare<[], { tenant: string; clock: string }>('SELECT tenant, clock FROM clocks').iterate()) {
    const kept = clockFromText(clock)
    if (kept !== undefined) clocks.set(tenant, kept)
  }
  return { tenants, maxSeq, clocks }
}
