import type { ValidateFunction } from 'ajv/dist/2020.js'
import { readWellKnown, seedState, WELL_KNOWN_FILES, type SeedOptions, type WellKnownRecords } from '../fixtures/seed.ts'
import { invariantProblems } from './admin/state-invariants.ts'
import { schemaOf, type Contract } from './contract/load-contract.ts'
import type { TenantState } from './store/records.ts'

/** A fixture that breaks the document: the start stops with the file, record and field. */
export class FixtureError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'FixtureError'
  }
}

const SCHEMA_OF: Record<keyof WellKnownRecords, string> = {
  subscribers: 'StoredSubscriber',
  integrations: 'StoredIntegration',
  messages: 'StoredMessage',
}

/** The seeded state every tenant starts from, with the well-known fixture files checked first. */
export function seededState(options: SeedOptions, admin: Contract): TenantState {
  const wellKnown = readWellKnown()
  for (const kind of Object.keys(SCHEMA_OF) as (keyof WellKnownRecords)[]) {
    checkRecords(WELL_KNOWN_FILES[kind], wellKnown[kind], schemaOf(admin, SCHEMA_OF[kind]))
  }
  const state = seedState(options, wellKnown)
  const problems = Object.entries(invariantProblems(state))
  if (problems.length > 0) {
    const [field, { messages }] = problems[0]!
    throw new FixtureError(`seeded state breaks an invariant at ${field}: ${messages.join('; ')}`)
  }
  return state
}

function checkRecords(file: string, records: unknown, validate: ValidateFunction): void {
  if (!Array.isArray(records)) throw new FixtureError(`${file}: expected a JSON array of records`)
  records.forEach((record, index) => {
    if (validate(record)) return
    const error = validate.errors?.[0]
    const field = error?.instancePath || '(record)'
    const id = (record as { _id?: string })?._id ?? `#${index}`
    throw new FixtureError(`${file}: record ${index} (${id}), field ${field}: ${error?.message ?? 'invalid'}`)
  })
}
