import { accessSync, closeSync, constants, existsSync, linkSync, openSync, readSync, renameSync, rmSync } from 'node:fs'
import { dirname } from 'node:path'
import type BetterSqlite3 from 'better-sqlite3'
import { readJsonStore } from './json-store-file.ts'
import type { TenantState } from '../records.ts'
import { SCHEMA, sqliteBackend } from './sqlite-backend.ts'
import type { StoreBackend } from '../store-backend.ts'
import { StoreFileError, type SeedSpec } from '../store.ts'
import { describeSeed, sameSeed } from '../file-seed.ts'


type Database = BetterSqlite3.Database

/** A store file, open and locked, before its tenants are read: they need the seed, which needs its options. */
export interface StoreFile {
  /** The seed options the file was written with; the requested ones for a new file. */
  readonly seed: SeedSpec
  /** The backend over the file, given the seed made from `seed` (a JSON store file is converted now). */
  backend(seed: TenantState): Promise<StoreBackend>
}

const FORMAT = 'novu-mock store 2'
/** Earlier formats this one reads: 1 is 2 without `row_owners` (created by the schema). */
const READS: readonly string[] = [FORMAT, 'novu-mock store 1']
const SQLITE_HEADER = Buffer.from('SQLite format 3\0', 'latin1')
const INSTALL = 'npm install better-sqlite3@12'
const REBUILD = 'npm rebuild better-sqlite3'

/**
 * Opens the file `--db` names, known by its content rather than its name: a new or empty file
 * becomes an SQLite store; an SQLite store is opened; a JSON store of earlier versions is
 * converted to SQLite (the JSON kept beside it). The file stays locked while this process runs.
 * With other seed options than the file's, `warn` says so and the file's are used.
 */
export async function openStoreFile(file: string, requested: SeedSpec, warn: (line: string) => void): Promise<StoreFile> {
  const content = contentOf(file)
  checkWritable(file)
  const Database = await loadDriver()
  if (content === 'json') {
    const backend = async (seed: TenantState) => {
      const backup = await convertJsonStore(Database, file, requested, seed)
      warn(`${file} was a JSON store: converted to SQLite, with the seed options given (${describeSeed(requested)}); the JSON file is kept as ${backup}`)
      return sqliteBackend(open(Database, file, requested))
    }
    return { seed: requested, backend }
  }
  const db = open(Database, file, requested)
  const stored = JSON.parse(db.prepare<[], string>(`SELECT value FROM meta WHERE name = 'seed'`).pluck().get()!) as SeedSpec
  if (!sameSeed(stored, requested)) warn(`${file} was written with the seed options ${describeSeed(stored)}; using them, not the ${describeSeed(requested)} given`)
  return { seed: stored, backend: async () => sqliteBackend(db) }
}

function contentOf(file: string): 'new' | 'sqlite' | 'json' {
  if (!existsSync(file)) return 'new'
  let head: Buffer
  try {
    const fd = openSync(file, 'r')
    head = Buffer.alloc(SQLITE_HEADER.length)
    head = head.subarray(0, readSync(fd, head, 0, head.length, 0))
    closeSync(fd)
  } catch (error) {
    throw new StoreFileError(`${file}: cannot read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`)
  }
  if (head.length === 0) return 'new'
  if (head.equals(SQLITE_HEADER)) return 'sqlite'
  if (head.toString('latin1').trimStart().startsWith('{')) return 'json'
  throw new StoreFileError(`${file}: not a novu-mock store (neither an SQLite database nor a JSON store file); give --db a new file`)
}

const writeError = (file: string, reason: string) =>
  new StoreFileError(`${file}: cannot write (${reason}); --db needs a file it may write, in a folder it may write (for ${file}-wal)`)

/** SQLite would open a file it may not write read-only, and fail later on its log: said plainly here instead. */
function checkWritable(file: string): void {
  for (const path of existsSync(file) ? [file, dirname(file)] : [dirname(file)]) {
    try {
      accessSync(path, constants.W_OK)
    } catch (error) {
      throw writeError(file, `${(error as NodeJS.ErrnoException).code ?? (error as Error).message}: ${path}`)
    }
  }
}

type Driver = typeof BetterSqlite3

/**
 * better-sqlite3 is an optional dependency, loaded only for --db: `npx novu-mock` never builds it.
 * Its native part loads with the first database, so one in memory is opened here: an install with
 * `--ignore-scripts` has the package without its build, which would otherwise fail later in a
 * dozen lines of paths.
 */
async function loadDriver(): Promise<Driver> {
  let Driver: Driver
  try {
    // A CommonJS module: its exports arrive as `default` (typed by `export =`, without it).
    Driver = ((await import('better-sqlite3')) as unknown as { default: Driver }).default
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code === 'ERR_MODULE_NOT_FOUND' ? 'is not installed' : `does not load (${(error as Error).message.split('\n')[0]})`
    throw new StoreFileError(`--db needs the optional package better-sqlite3, which ${reason}: run ${INSTALL}`)
  }
  try {
    new Driver(':memory:').close()
  } catch (error) {
    const unbuilt = /bindings file/.test((error as Error).message)
    const reason = unbuilt ? 'is installed without its native build (an install with --ignore-scripts skips it)' : `does not load (${(error as Error).message.split('\n')[0]})`
    throw new StoreFileError(`--db needs the optional package better-sqlite3, which ${reason}: run ${REBUILD}`)
  }
  return Driver
}

/**
 * Opens, locks and checks the database: locking_mode=EXCLUSIVE with a write at once holds the
 * lock until the process ends, so a second process fails here. WAL with synchronous=FULL: a
 * commit is on disk (synced) before the write that asked for it is answered.
 */
function open(Database: Driver, file: string, requested: SeedSpec): Database {
  let db: Database | undefined
  try {
    db = new Database(file, { timeout: 0 })
    db.pragma('locking_mode = EXCLUSIVE')
    db.pragma('journal_mode = WAL')
    db.pragma('synchronous = FULL')
    const init = db.transaction(() => {
      db!.exec(SCHEMA)
      const format = db!.prepare<[], string>(`SELECT value FROM meta WHERE name = 'format'`).pluck().get()
      if (format === undefined && hasOtherTables(db!)) throw new StoreFileError(`${file}: an SQLite database, but not a novu-mock store; give --db another file`)
      if (format !== undefined && !READS.includes(format)) throw new StoreFileError(`${file}: a novu-mock store of another format (${format}); a newer novu-mock wrote it`)
      db!.prepare(`INSERT OR IGNORE INTO meta VALUES ('seed', ?)`).run(JSON.stringify(requested))
      db!.prepare(`INSERT OR REPLACE INTO meta VALUES ('format', ?)`).run(FORMAT)
      db!.prepare(`INSERT OR REPLACE INTO meta VALUES ('opened', ?)`).run(new Date().toISOString())
    })
    init.immediate()
    return db
  } catch (error) {
    db?.close()
    throw openError(file, error)
  }
}

const hasOtherTables = (db: Database) =>
  db.prepare<[], number>(`SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name NOT IN ('meta', 'tenants', 'records', 'snapshots', 'snapshot_records', 'key_records', 'clocks', 'tenant_calls', 'row_owners')`).pluck().get()! > 0

function openError(file: string, error: unknown): StoreFileError {
  if (error instanceof StoreFileError) return error
  const code = (error as { code?: string }).code ?? ''
  const message = (error as Error).message
  if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) {
    return new StoreFileError(`${file} is in use by another process (a novu-mock holds it locked while it runs); stop that one, or give --db another file`)
  }
  if (code.startsWith('SQLITE_READONLY') || code.startsWith('SQLITE_CANTOPEN') || code.startsWith('SQLITE_PERM')) {
    return writeError(file, message)
  }
  if (code.startsWith('SQLITE_FULL')) return new StoreFileError(`${file}: the disk is full (${message})`)
  if (code.startsWith('SQLITE_NOTADB') || code.startsWith('SQLITE_CORRUPT')) return new StoreFileError(`${file}: not a novu-mock store (${message})`)
  return new StoreFileError(`${file}: cannot open (${code ? `${code}: ` : ''}${message})`)
}

/**
 * Writes the JSON store's tenants and snapshots as rows over `seed` into a new SQLite file, then
 * puts it in the JSON's place; the JSON stays beside it as a backup, whose name is returned. Until
 * the last rename the JSON file is where it was, so a start that stops half-way converts again.
 */
async function convertJsonStore(Database: Driver, file: string, requested: SeedSpec, seed: TenantState): Promise<string> {
  const changes = readJsonStore(file, seed)
  const temporary = `${file}.converting`
  for (const suffix of ['', '-wal', '-shm']) rmSync(`${temporary}${suffix}`, { force: true })
  const backend = sqliteBackend(open(Database, temporary, requested))
  await backend.write(changes)
  await backend.close()
  let backup = `${file}.json-backup`
  for (let n = 2; existsSync(backup); n++) backup = `${file}.json-backup-${n}`
  linkSync(file, backup)
  renameSync(temporary, file)
  return backup
}
