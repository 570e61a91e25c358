import Database from 'better-sqlite3'
import { describe, expect, it } from 'vitest'
import { seedState } from '../../src/seed/generators/seed.ts'
import type { Change, OverlayRow, StoreBackend } from '../../src/store/store-backend.ts'
import { openStoreFile } from '../../src/store/sqlite/store-file.ts'
import type { SeedSpec } from '../../src/store/store.ts'
import { dbFile } from './helpers.ts'

/**
 * --db: a snapshot, a restore, a reset or a tenant made again that moves thousands of rows is
 * written in steps (docs/decisions.md, 2026-11-27): another tenant's write is stored meanwhile, and
 * a process stopped half-way comes back with the state from before, never half of it.
 */
const SEED: SeedSpec = { seed: 1, subscribers: 2, channelConnections: 2 }
const seed = seedState(SEED)
const LARGE = 30_000

const open = async (file: string) => (await openStoreFile(file, SEED, () => undefined)).backend(seed)

/** `count` connection rows marked `mark`. */
const rows = (count: number, mark: string): OverlayRow[] =>
  Array.from({ length: count }, (_, i) => ({ kind: 'channelConnections', id: `c-${i}`, seq: i + 1, record: { identifier: `c-${i}`, mark } }))

/** Per tenant: its rows' marks counted, and per snapshot the same. */
async function stored(backend: StoreBackend) {
  const { tenants } = await backend.load()
  const marks = (some: OverlayRow[]) => {
    const counted: Record<string, number> = {}
    for (const { record } of some) {
      const mark = (record as { mark: string }).mark
      counted[mark] = (counted[mark] ?? 0) + 1
    }
    return counted
  }
  return new Map([...tenants].map(([tenant, { rows: own, snapshots }]) => [tenant, { rows: marks(own), snapshots: Object.fromEntries(snapshots.map((s) => [s.name, marks(s.rows)])) }]))
}

/** Rows in the file's tables, wherever they are kept. */
function rowsInFile(file: string): { records: number; snapshotRecords: number } {
  const db = new Database(file, { readonly: true })
  try {
    const count = (table: string) => db.prepare<[], number>(`SELECT count(*) FROM ${table}`).pluck().get()!
    return { records: count('records'), snapshotRecords: count('snapshot_records') }
  } finally {
    db.close()
  }
}

/** Settles in the order the promises settle: the names of those given. */
async function settleOrder(named: Record<string, Promise<unknown>>): Promise<string[]> {
  const order: string[] = []
  await Promise.all(Object.entries(named).map(([name, promise]) => promise.then(() => void order.push(name))))
  return order
}

const put = (tenant: string, mark: string): Change => ({ type: 'put', tenant, rows: rows(1, mark).map((row) => ({ ...row, id: `small-${mark}` })) })

describe('--db: large snapshots, restores and resets, written in steps', () => {
  it('stores another tenant’s write while each is under way, and keeps each whole across a restart', { timeout: 60_000 }, async () => {
    const file = dbFile()
    const backend = await open(file)
    await backend.write([{ type: 'replace', tenant: 'large', rows: rows(LARGE, 'first') }])

    const save = backend.write([{ type: 'saveSnapshot', tenant: 'large', name: 'first', createdAt: '2030-01-01T00:00:00.000Z' }])
    expect(await settleOrder({ save, other: backend.write([put('other', 'during-save')]) })).toEqual(['other', 'save'])
    await backend.write([{ type: 'replace', tenant: 'large', rows: rows(LARGE, 'second') }])
    const restore = backend.write([{ type: 'restoreSnapshot', tenant: 'large', name: 'first' }])
    expect(await settleOrder({ restore, other: backend.write([put('other', 'during-restore')]) })).toEqual(['other', 'restore'])
    await backend.close()

    const again = await open(file)
    const held = await stored(again)
    expect(held.get('large')).toEqual({ rows: { first: LARGE }, snapshots: { first: { first: LARGE } } })
    expect(held.get('other')?.rows).toEqual({ 'during-save': 1, 'during-restore': 1 })
    await again.close()
    // Nothing kept twice once the file is open again: the tenant's rows and one snapshot's.
    expect(rowsInFile(file)).toEqual({ records: LARGE + 2, snapshotRecords: LARGE })
  })

  it('resets a large tenant, or makes it again, before its old rows are gone: they go in steps after', { timeout: 60_000 }, async () => {
    for (const change of [
      { type: 'replace', tenant: 'large', rows: [] },
      { type: 'createTenant', tenant: 'large', seed: { options: SEED } },
    ] satisfies Change[]) {
      const file = dbFile()
      const backend = await open(file)
      await backend.write([{ type: 'replace', tenant: 'large', rows: rows(2 * LARGE, 'old') }])
      await backend.write([change, { type: 'forgetKeyRecords', tenant: 'large' }])
      await backend.write([put('other', 'after')])
      await backend.close()
      // The other write was stored, and the process stopped, while the old rows were still being removed.
      expect(rowsInFile(file).records).toBeGreaterThan(1)

      const again = await open(file)
      expect((await stored(again)).get('large')).toEqual(change.type === 'replace' ? undefined : { rows: {}, snapshots: {} })
      await again.close()
      expect(rowsInFile(file).records).toBe(1)
    }
  })

  it('comes back with no snapshot, and no rows of it, when stopped half-way through its save', { timeout: 60_000 }, async () => {
    const file = dbFile()
    const backend = await open(file)
    await backend.write([{ type: 'replace', tenant: 'large', rows: rows(LARGE, 'kept') }])
    const save = backend.write([{ type: 'saveSnapshot', tenant: 'large', name: 'cut', createdAt: '2030-01-01T00:00:00.000Z' }])
    const failed = save.then(
      () => 'stored',
      () => 'failed',
    )
    // The other write is stored between two of the save's steps: the process stops there.
    await backend.write([put('other', 'before-stop')])
    await backend.close()
    expect(await failed).toBe('failed')
    expect(rowsInFile(file).snapshotRecords).toBeGreaterThan(0)

    const again = await open(file)
    expect((await stored(again)).get('large')).toEqual({ rows: { kept: LARGE }, snapshots: {} })
    await again.close()
    expect(rowsInFile(file).snapshotRecords).toBe(0)
  })

  it('saves a snapshot under the name of one just deleted with the new rows alone', { timeout: 60_000 }, async () => {
    const file = dbFile()
    const backend = await open(file)
    await backend.write([{ type: 'replace', tenant: 'large', rows: rows(LARGE, 'old') }])
    await backend.write([{ type: 'saveSnapshot', tenant: 'large', name: 'named', createdAt: '2030-01-01T00:00:00.000Z' }])
    await backend.write([{ type: 'replace', tenant: 'large', rows: rows(LARGE / 2, 'new') }])
    await backend.write([{ type: 'deleteSnapshot', tenant: 'large', name: 'named' }])
    await backend.write([{ type: 'saveSnapshot', tenant: 'large', name: 'named', createdAt: '2030-01-02T00:00:00.000Z' }])
    expect((await stored(backend)).get('large')?.snapshots).toEqual({ named: { new: LARGE / 2 } })
    await backend.close()
    expect(rowsInFile(file).snapshotRecords).toBe(LARGE / 2)
  })
})
