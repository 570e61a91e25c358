import { createHash } from 'node:crypto'
import { existsSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import type { ValidateFunction } from 'ajv/dist/2020.js'
import { readWellKnown, seedState } from './generators/seed.ts'
import type { SeedProgress } from './progress-counter.ts'
import { invariantProblems } from './state-invariants.ts'
import type { Contract } from '../contract/load-contract.ts'
import { FixtureError } from './fixture-error.ts'
import type { TenantState } from '../store/records.ts'
import type { SeedSpec } from '../store/store.ts'

type Kind = keyof TenantState
const KINDS: readonly Kind[] = ['subscribers', 'integrations', 'channelConnections', 'messages']
const EMPTY: TenantState = { subscribers: [], integrations: [], channelConnections: [], messages: [] }

/**
 * The state every tenant starts from. The user's fixtures are checked first, by the same compiled
 * validator that checks `PUT /__admin/state`, then the whole state's invariants. The package's own
 * records (well-known and generated) are checked against that schema by the test suite instead:
 * loading the validator costs ~30 ms of every start-up.
 */
export function seededState(options: SeedSpec, admin: Contract, onProgress?: SeedProgress): TenantState {
  const wellKnown = readWellKnown()
  let state = seedState(options, onProgress, wellKnown)
  if (options.fixtures) {
    const validate = admin.operations.get('putState')?.validateBody
    if (!validate) throw new Error('spec/admin.yaml has no putState body')
    const { records, files } = readUserFixtures(options.fixtures.dir)
    checkFiles(records, files, validate)
    state = options.fixtures.mode === 'replace' ? records : merged(state, records)
  }
  const problems = Object.entries(invariantProblems(state))
  if (problems.length > 0) {
    const [field, { messages }] = problems[0]!
    throw new FixtureError(`the starting state breaks an invariant at ${field}: ${messages.join('; ')}`)
  }
  return state
}

/** The files `fixtures` names: the state file itself, or the folder's files that exist. */
export function fixtureFiles(path: string): string[] {
  if (!existsSync(path)) throw new FixtureError(`${path}: no such fixtures folder or file`)
  if (statSync(path).isFile()) return [path]
  return KINDS.map((kind) => join(path, `${kind}.json`)).filter((file) => existsSync(file))
}

/** A digest of what the fixtures hold now: which files, and their bytes. */
export function fixturesDigest(path: string): string {
  const hash = createHash('sha256')
  for (const file of fixtureFiles(path)) hash.update(`${file}\0`).update(readFileSync(file)).update('\0')
  return hash.digest('hex')
}

function readUserFixtures(path: string): { records: TenantState; files: Partial<Record<Kind, string>> } {
  const found = fixtureFiles(path)
  if (found[0] === path) return readStateFile(path)
  const records: TenantState = { ...EMPTY }
  const files: Partial<Record<Kind, string>> = {}
  for (const kind of KINDS) {
    const file = join(path, `${kind}.json`)
    if (!found.includes(file)) continue
    files[kind] = file
    // Checked against the document by the caller, like every other shape a user hands in.
    Object.assign(records, { [kind]: parseJson(file) })
  }
  return { records, files }
}

/** One file holding every kind; a kind left out is empty, a key of no kind is refused by the document. */
function readStateFile(file: string): { records: TenantState; files: Partial<Record<Kind, string>> } {
  const parsed = parseJson(file)
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new FixtureError(`${file}: expected a JSON object of subscribers, integrations, channelConnections and messages, as GET /__admin/state returns`)
  }
  // Checked against the document by the caller; a key of no kind makes that check fail.
  return { records: { ...EMPTY, ...(parsed as Partial<TenantState>) }, files: Object.fromEntries(KINDS.map((kind) => [kind, file])) }
}

function parseJson(file: string): unknown {
  try {
    return JSON.parse(readFileSync(file, 'utf8'))
  } catch (error) {
    throw new FixtureError(`${file}: ${(error as Error).message}`)
  }
}

/** Records keyed as the store keys them; the user's replace the seeded ones of the same key. */
function merged(seeded: TenantState, user: TenantState): TenantState {
  const by = <T>(key: (record: T) => string, base: T[], extra: T[]) => [
    ...new Map([...base, ...extra].map((record) => [key(record), record])).values(),
  ]
  return {
    subscribers: by((s) => s.subscriberId, seeded.subscribers, user.subscribers),
    integrations: by((i) => i._id, seeded.integrations, user.integrations),
    channelConnections: by((c) => c._id, seeded.channelConnections, user.channelConnections),
    messages: by((m) => m._id, seeded.messages, user.messages),
  }
}

function checkFiles(records: TenantState, files: Partial<Record<Kind, string>>, validate: ValidateFunction): void {
  // A state file holds every kind, so its messages name the kind; a folder's file names it already.
  const stateFile = new Set(Object.values(files)).size === 1 && Object.keys(files).length === KINDS.length
  const where = (kind: string) => {
    const file = files[kind as Kind]
    if (file === undefined) return kind ? `${Object.values(files)[0] ?? 'fixtures'}: ${kind}` : (Object.values(files)[0] ?? 'fixtures')
    return stateFile ? `${file}: ${kind}` : file
  }
  for (const kind of KINDS) {
    if (!Array.isArray(records[kind])) throw new FixtureError(`${where(kind)}: expected a JSON array of records`)
  }
  if (validate(records)) return
  const error = validate.errors?.[0]
  const [, kind = '', index = '', ...field] = (error?.instancePath ?? '').split('/')
  if (index === '') {
    // The whole document or one kind's array is wrong (a state file's unknown key, say), not a record.
    const extra = (error?.params as { additionalProperty?: string } | undefined)?.additionalProperty
    throw new FixtureError(`${where(kind)}: ${error?.message ?? 'invalid'}${extra ? ` (${extra})` : ''}`)
  }
  const record = (records[kind as Kind] as { _id?: string }[] | undefined)?.[Number(index)]
  throw new FixtureError(`${where(kind)}: record ${index} (${record?._id ?? 'no _id'}), field /${field.join('/')}: ${error?.message ?? 'invalid'}`)
}
