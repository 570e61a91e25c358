import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { ValidateFunction } from 'ajv/dist/2020.js'
import { readWellKnown, seedState, WELL_KNOWN_FILES, type SeedOptions } from '../fixtures/seed.ts'
import { invariantProblems } from './admin/state-invariants.ts'
import type { Contract } from './contract/load-contract.ts'
import type { TenantState } from './store/records.ts'

/** A fixture that breaks the document: the start stops with the file, record and field. */
export class FixtureError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'FixtureError'
  }
}

/** A folder of the user's records (`subscribers.json`, … one JSON array per kind). */
export interface UserFixtures {
  dir: string
  /** `merge`: on top of the seeded records, same id replacing; `replace`: instead of them. */
  mode: 'merge' | 'replace'
}

export interface SeedingOptions extends SeedOptions {
  fixtures?: UserFixtures | undefined
}

type Kind = keyof TenantState
const KINDS: readonly Kind[] = ['subscribers', 'integrations', 'channelConnections', 'messages']
const EMPTY: TenantState = { subscribers: [], integrations: [], channelConnections: [], messages: [] }

/**
 * The state every tenant starts from. The well-known fixtures and the user's are checked first,
 * by the same compiled validator that checks `PUT /__admin/state`, then the whole state's
 * invariants.
 */
export function seededState(options: SeedingOptions, admin: Contract): TenantState {
  const validate = admin.operations.get('putState')?.validateBody
  if (!validate) throw new Error('spec/admin.yaml has no putState body')
  const wellKnown = readWellKnown()
  checkFiles({ ...EMPTY, ...wellKnown }, WELL_KNOWN_FILES, validate)
  let state = seedState(options, wellKnown)
  if (options.fixtures) {
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

function readUserFixtures(dir: string): { records: TenantState; files: Partial<Record<Kind, string>> } {
  if (!existsSync(dir)) throw new FixtureError(`${dir}: no such fixtures folder`)
  const records: TenantState = { ...EMPTY }
  const files: Partial<Record<Kind, string>> = {}
  for (const kind of KINDS) {
    const file = join(dir, `${kind}.json`)
    if (!existsSync(file)) continue
    files[kind] = file
    try {
      records[kind] = JSON.parse(readFileSync(file, 'utf8'))
    } catch (error) {
      throw new FixtureError(`${file}: ${(error as Error).message}`)
    }
  }
  return { records, files }
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
  for (const kind of KINDS) {
    if (!Array.isArray(records[kind])) throw new FixtureError(`${files[kind] ?? kind}: expected a JSON array of records`)
  }
  if (validate(records)) return
  const error = validate.errors?.[0]
  const [, kind = '', index = '', ...field] = (error?.instancePath ?? '').split('/')
  const record = (records[kind as Kind] as { _id?: string }[] | undefined)?.[Number(index)]
  throw new FixtureError(
    `${files[kind as Kind] ?? 'fixtures'}: record ${index} (${record?._id ?? 'no _id'}), field /${field.join('/')}: ${error?.message ?? 'invalid'}`,
  )
}
