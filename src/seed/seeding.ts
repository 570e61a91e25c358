import { readFileSync } from 'node:fs'
import { basename, join } from 'node:path'
import type { ErrorObject, ValidateFunction } from 'ajv/dist/2020.js'
import { readWellKnown, seedState } from './generators/seed.ts'
import type { SeedProgress } from './progress-counter.ts'
import { invariantProblems } from './state-invariants.ts'
import type { Contract } from '../contract/load-contract.ts'
import { FixtureError } from './fixture-error.ts'
import { fixtureFiles, KINDS, OPTIONAL_KINDS, unknownFixtureFiles } from './fixture-files.ts'
import type { TenantState } from '../store/records.ts'
import type { SeedSpec } from '../store/store.ts'

export { fixtureFiles, fixturesDigest } from './fixture-files.ts'

const EMPTY: TenantState = { subscribers: [], integrations: [], channelConnections: [], messages: [] }

/** What the user's fixtures gave, for the start's banner and its warnings. */
export interface FixturesRead {
  /** The files read, by name. */
  files: string[]
  /** The records they hold, workflows not counted. */
  records: number
  /** What a user should know: a `.json` file not read. */
  warnings: string[]
}

/** Problems listed at most in one message: a file of 10,000 bad records says how many more there are. */
const MAX_PROBLEMS = 100

/**
 * The state every tenant starts from. The user's fixtures are checked first, by the same compiled
 * validator that checks `PUT /__admin/state`, then the whole state's invariants; every problem of
 * every file and record is in the one error. The package's own records (well-known and
 * generated) are checked against that schema by the test suite instead: loading the validator
 * costs ~30 ms of every start-up.
 */
export function seededState(options: SeedSpec, admin: Contract, onProgress?: SeedProgress, onFixtures?: (read: FixturesRead) => void): TenantState {
  const wellKnown = readWellKnown()
  let state = seedState(options, onProgress, wellKnown)
  if (options.fixtures) {
    const validate = admin.operations.get('putState')?.validateBody
    if (!validate) throw new Error('spec/admin.yaml has no putState body')
    const read = readUserFixtures(options.fixtures.dir)
    const problems = [...read.problems, ...schemaProblems(read.records, read.files, validate)]
    if (problems.length > 0) throw fixtureError(problems)
    state = options.fixtures.mode === 'replace' ? read.records : merged(state, read.records)
    const records = KINDS.reduce((sum, kind) => sum + read.records[kind].length, 0)
    onFixtures?.({ files: read.names, records, warnings: read.warnings })
  }
  const broken = Object.entries(invariantProblems(state))
  if (broken.length > 0) throw fixtureError(broken.map(([field, { messages }]) => `the starting state breaks an invariant at ${field}: ${messages.join('; ')}`))
  return state
}

function fixtureError(problems: readonly string[]): FixtureError {
  const lines = [...new Set(problems)]
  const more = lines.length - MAX_PROBLEMS
  return new FixtureError([...lines.slice(0, MAX_PROBLEMS), ...(more > 0 ? [`… and ${more} more`] : [])].join('\n'))
}

interface UserFixtures {
  records: TenantState
  files: Partial<Record<keyof TenantState, string>>
  names: string[]
  /** A file that is not JSON, or not an array: its kind reads as empty, so the others are still checked. */
  problems: string[]
  warnings: string[]
}

function readUserFixtures(path: string): UserFixtures {
  const found = fixtureFiles(path)
  if (found[0] === path) return readStateFile(path)
  const fixtures: UserFixtures = { records: { ...EMPTY }, files: {}, names: found.map((file) => basename(file)), problems: [], warnings: [] }
  for (const name of unknownFixtureFiles(path)) fixtures.warnings.push(`${join(path, name)}: not read: a fixtures folder holds subscribers.json, integrations.json, channelConnections.json, messages.json (or workflows.json)`)
  for (const kind of [...KINDS, ...OPTIONAL_KINDS]) {
    const file = join(path, `${kind}.json`)
    if (!found.includes(file)) continue
    fixtures.files[kind] = file
    const value = parsed(file, fixtures.problems)
    // Each record is checked against the document below, like every other shape a user hands in.
    if (Array.isArray(value)) Object.assign(fixtures.records, { [kind]: value })
    else if (value !== undefined) fixtures.problems.push(`${file}: expected a JSON array of records`)
  }
  return fixtures
}

/** One file holding every kind; a kind left out is empty, a key of no kind is refused by the document. */
function readStateFile(file: string): UserFixtures {
  const problems: string[] = []
  const value = parsed(file, problems)
  const fixtures: UserFixtures = { records: { ...EMPTY }, files: Object.fromEntries(KINDS.map((kind) => [kind, file])), names: [basename(file)], problems, warnings: [] }
  if (value === undefined) return fixtures
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    problems.push(`${file}: expected a JSON object of subscribers, integrations, channelConnections and messages, as GET /__admin/state returns`)
    return fixtures
  }
  // Checked against the document by the caller; a key of no kind makes that check fail.
  fixtures.records = { ...EMPTY, ...(value as Partial<TenantState>) }
  for (const kind of KINDS) {
    if (Array.isArray(fixtures.records[kind])) continue
    problems.push(`${file}: ${kind}: expected a JSON array of records`)
    fixtures.records[kind] = []
  }
  return fixtures
}

/** The file's JSON, or undefined with its problem added to `problems`. */
function parsed(file: string, problems: string[]): unknown {
  try {
    return JSON.parse(readFileSync(file, 'utf8'))
  } catch (error) {
    problems.push(`${file}: ${(error as Error).message}`)
    return undefined
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
    // The seed has none: a tenant has workflows only when the user gives some.
    ...(user.workflows ? { workflows: user.workflows } : {}),
  }
}

/** Every problem the document finds, one line each, naming the file, the record and the field. */
function schemaProblems(records: TenantState, files: Partial<Record<keyof TenantState, string>>, validate: ValidateFunction): string[] {
  if (validate(records)) return []
  // A state file holds every kind, so its messages name the kind; a folder's file names it already.
  const stateFile = new Set(Object.values(files)).size === 1 && Object.keys(files).length === KINDS.length
  const where = (kind: string) => {
    const file = files[kind as keyof TenantState]
    if (file === undefined) return kind ? `${Object.values(files)[0] ?? 'fixtures'}: ${kind}` : (Object.values(files)[0] ?? 'fixtures')
    return stateFile ? `${file}: ${kind}` : file
  }
  return (validate.errors ?? []).map((error) => problemLine(error, records, where))
}

function problemLine(error: ErrorObject, records: TenantState, where: (kind: string) => string): string {
  const [, kind = '', index = '', ...field] = error.instancePath.split('/')
  const extra = (error.params as { additionalProperty?: string }).additionalProperty
  const message = `${error.message ?? 'invalid'}${extra ? ` (${extra})` : ''}`
  // The whole document or one kind's array is wrong (a state file's unknown key, say), not a record.
  if (index === '') return `${where(kind)}: ${message}`
  const record = (records[kind as keyof TenantState] as { _id?: string }[] | undefined)?.[Number(index)]
  return `${where(kind)}: record ${index} (${record?._id ?? 'no _id'}), field /${field.join('/')}: ${message}`
}
