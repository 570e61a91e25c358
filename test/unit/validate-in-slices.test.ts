import { beforeAll, describe, expect, it } from 'vitest'
import { ApiError } from '../../src/answer/api-error.ts'
import { loadContracts, type Contract } from '../../src/contract/load-contract.ts'
import type { Operation } from '../../src/contract/operation.ts'
import { validateRequestInSlices } from '../../src/contract/validation/validate-in-slices.ts'
import { validateRequest } from '../../src/contract/validation/validate-request.ts'
import { seededState } from '../../src/seed/seeding.ts'
import type { TenantState } from '../../src/store/records.ts'

let admin: Contract
let putState: Operation
let seed: TenantState
beforeAll(async () => {
  ;({ admin } = await loadContracts())
  putState = admin.operations.get('putState')!
  seed = seededState({ seed: 1, subscribers: 50, channelConnections: 120 }, admin)
})

const params = () => ({ path: {}, query: {}, header: {} })

/** The answer of either check, as a client reads it: status, code, and the problems in their order. */
async function outcomeOf(check: () => unknown): Promise<unknown> {
  try {
    return { passed: await check() }
  } catch (error) {
    if (!(error instanceof ApiError)) throw error
    return { status: error.status, code: error.code, message: error.message, errors: JSON.stringify(error.details.errors) }
  }
}

type Edit = (state: Record<string, unknown> & TenantState) => void
const editsOf: [string, Edit][] = [
  ['nothing', () => undefined],
  ['a record broken in each array', (s) => {
    Object.assign(s.subscribers[3]!, { firstName: 42 })
    s.integrations[2]!.priority = -1
    delete (s.channelConnections[100] as { _id?: string })._id
    Object.assign(s.messages[200]!, { status: 'lost', extra: true })
  }],
  ['several problems in one record, and in several records of one array', (s) => {
    Object.assign(s.messages[5]!, { status: 'lost', channel: 7 })
    Object.assign(s.messages[1]!, { _id: 3 })
  }],
  ['an array that is not one, after a broken record', (s) => {
    Object.assign(s.subscribers[0]!, { email: 5 })
    Object.assign(s, { integrations: { not: 'an array' } })
  }],
  ['a missing and an unknown property, with broken records', (s) => {
    delete (s as Partial<TenantState>).messages
    s.unknown = [1]
    Object.assign(s.channelConnections[0]!, { _id: null })
  }],
  ['records that are not objects', (s) => {
    ;(s.subscribers as unknown[])[1] = 'text'
    ;(s.messages as unknown[])[0] = null
  }],
  ['a member named __proto__', (s) => Object.defineProperty(s, '__proto__', { value: [], enumerable: true, configurable: true, writable: true })],
]

describe('a state checked in slices', () => {
  it.each(editsOf)('answers as the whole check does, for %s', async (_case, edit) => {
    const state = structuredClone(seed) as Record<string, unknown> & TenantState
    edit(state)
    const whole = await outcomeOf(() => validateRequest(putState, params(), structuredClone(state)))
    const sliced = await outcomeOf(() => validateRequestInSlices(putState, params(), structuredClone(state)))
    expect(sliced).toEqual(whole)
    expect(whole).toMatchObject(_case === 'nothing' ? { passed: { body: state } } : { status: 422, code: 'VALIDATION_ERROR' })
  })

  it('splits the records of the state only, each by a validator from the same document', () => {
    expect([...putState.splitBody!.items.keys()]).toEqual(['subscribers', 'integrations', 'channelConnections', 'messages', 'workflows'])
    expect(admin.operations.get('createTenant')!.splitBody).toBeUndefined()
  })
})
