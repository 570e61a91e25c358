import type { ErrorObject } from 'ajv/dist/2020.js'
import { beforeAll, describe, expect, it } from 'vitest'
import { createAjvInstances } from '../../src/contract/ajv-instances.ts'
import { loadContracts, type Contract } from '../../src/contract/load-contract.ts'
import { withOwnDefinitions } from '../../src/contract/schema-copies.ts'
import type { JsonSchema } from '../../src/contract/validator-source.ts'
import { OPERATION_IDS } from '../helpers/operations.ts'

let api: Contract
beforeAll(async () => {
  ;({ api } = await loadContracts({ build: undefined }))
})

type Documented = { operationId?: string; responses: Record<string, { content: Record<string, { schema: JsonSchema }> }> }

function successSchema(operationId: string): JsonSchema {
  const op = Object.values(api.document.paths ?? {}).flatMap((item) => Object.values(item ?? {}) as Documented[]).find((candidate) => candidate.operationId === operationId)!
  return op.responses[String(api.operations.get(operationId)!.successStatus)]!.content['application/json']!.schema
}

/** The documented answer, and the same broken in ways a mock's bug would break it. */
function answersOf(operationId: string): unknown[] {
  const operation = api.operations.get(operationId)!
  const example = operation.example(operation.successStatus, undefined) as Record<string, unknown> | Record<string, unknown>[]
  const record = (answer: unknown) => (Array.isArray(answer) ? answer[0] : (answer as { data?: unknown[] }).data?.[0] ?? answer) as Record<string, unknown>
  const broken = (edit: (record: Record<string, unknown>) => void) => {
    const copy = structuredClone(example)
    edit(record(copy))
    return copy
  }
  return [
    example,
    broken((r) => (r.unknownField = 1)),
    broken((r) => (r._id = 5)),
    broken((r) => delete r._id),
    broken((r) => (r.createdAt = 'yesterday')),
    broken((r) => Object.assign(r, { channels: [{ providerId: 42 }], cta: { type: 3 }, credentials: 'none' })),
  ]
}

const problems = (errors: ErrorObject[] | null | undefined) => (errors ?? []).map((e) => `${e.instancePath} ${e.message}`).sort()

describe('a schema with its large subschemas as definitions of their own', () => {
  it.each(OPERATION_IDS)('gives every verdict and problem the schema as written gives: %s', (operationId) => {
    const schema = successSchema(operationId)
    const ajv = createAjvInstances().response
    const whole = ajv.compile(schema)
    const split = ajv.compile(withOwnDefinitions(schema))
    for (const answer of answersOf(operationId)) {
      expect(split(answer)).toBe(whole(answer))
      expect(problems(split.errors)).toEqual(problems(whole.errors))
    }
    expect(whole(answersOf(operationId)[0])).toBe(true)
    expect(whole(answersOf(operationId)[1])).toBe(false)
  })

  it("makes a message's subschemas definitions, referred to where they stood", () => {
    const schema = successSchema('markMessagesAs')
    const split = withOwnDefinitions(schema)
    expect(Object.keys(split.$defs as object).length).toBeGreaterThan(1)
    expect(split.items).toEqual({ $ref: expect.stringMatching(/^#\/\$defs\//) })
    // The document's own objects are copied, not changed.
    expect(schema.items).not.toHaveProperty('$ref')
  })

  it('leaves a small schema as it is', () => {
    const schema = { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] }
    expect(withOwnDefinitions(schema)).toEqual(schema)
  })
})
