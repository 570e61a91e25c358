import type { ValidateFunction } from 'ajv/dist/2020.js'
import { readWellKnown, seedState, WELL_KNOWN_FILES, type SeedOptions, type WellKnownRecords } from '../fixtures/seed.ts'
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

/**
 * The seeded state every tenant starts from, with the well-known fixture files checked first, by
 * the same compiled validator that checks `PUT /__admin/state` (one compile, not one per kind).
 */
export function seededState(options: SeedOptions, admin: Contract): TenantState {
  const wellKnown = readWellKnown()
  const validate = admin.operations.get('putState')?.validateBody
  if (!validate) throw new Error('spec/admin.yaml has no putState body')
  for (const kind of ['subscribers', 'integrations', 'messages'] as const) {
    if (!Array.isArray(wellKnown[kind])) throw new FixtureError(`${WELL_KNOWN_FILES[kind]}: expected a JSON array of records`)
  }
  checkRecords({ ...wellKnown, channelConnections: [] }, validate)
  const state = seedState(options, wellKnown)
  const problems = Object.entries(invariantProblems(state))
  if (problems.length > 0) {
    const [field, { messages }] = problems[0]!
    throw new FixtureError(`seeded state breaks an invariant at ${field}: ${messages.join('; ')}`)
  }
  return state
}

function checkRecords(records: WellKnownRecords & { channelConnections: [] }, validate: ValidateFunction): void {
  if (validate(records)) return
  const error = validate.errors?.[0]
  const [, kind = '', index = '', ...field] = (error?.instancePath ?? '').split('/')
  const file = WELL_KNOWN_FILES[kind as keyof WellKnownRecords] ?? 'fixtures'
  const record = (records[kind as keyof WellKnownRecords] as { _id?: string }[] | undefined)?.[Number(index)]
  throw new FixtureError(
    `${file}: record ${index} (${record?._id ?? 'no _id'}), field /${field.join('/')}: ${error?.message ?? 'invalid'}`,
  )
}
