import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createAjvInstances } from '../../src/contract/ajv-instances.ts'
import type { MockServer } from '../../src/app/create-mock-server.ts'
import { loadContracts } from '../../src/app/create-state.ts'
import { expectContract } from '../helpers/expect-contract.ts'
import { freshTenant, startTestServer } from '../helpers/start-test-server.ts'
import { ADA } from '../helpers/well-known.ts'

type Schema = Record<string, unknown> & { example?: unknown }
type Media = { schema?: Schema; example?: unknown; examples?: Record<string, { value?: unknown }> }

/** Forced answers (`Prefer`) send the documents' examples, so every one must pass its schema. */
describe('the documents’ examples', () => {
  it.each(['api', 'admin'] as const)('all validate in the %s document', async (name) => {
    const { document, operations } = (await loadContracts())[name]
    const ajv = createAjvInstances().response
    const failures: string[] = []
    for (const [component, schema] of Object.entries((document.components?.schemas ?? {}) as Record<string, Schema>)) {
      if (schema.example === undefined) continue
      const validate = ajv.compile(schema)
      if (!validate(schema.example)) failures.push(`${component}: ${ajv.errorsText(validate.errors)}`)
    }
    for (const operation of operations.values()) {
      const item = document.paths?.[operation.pathTemplate] as Record<string, { responses?: Record<string, { content?: Record<string, Media> }> }>
      for (const [status, response] of Object.entries(item[operation.method.toLowerCase()]?.responses ?? {})) {
        const media = response.content?.['application/json']
        const examples = { ...media?.examples, ...(media?.example === undefined ? {} : { '(example)': { value: media.example } }) }
        for (const [exampleName, example] of Object.entries(examples)) {
          const validate = operation.responseValidators.get(Number(status))!
          if (!validate(example.value)) failures.push(`${operation.operationId} ${status} ${exampleName}: ${ajv.errorsText(validate.errors)}`)
          // The docs page shows each error response's own example: its status must be the response's.
          const statusCode = (example.value as { statusCode?: unknown } | null)?.statusCode
          if (statusCode !== undefined && statusCode !== Number(status)) failures.push(`${operation.operationId} ${status} ${exampleName}: statusCode ${String(statusCode)}`)
        }
      }
    }
    expect(failures).toEqual([])
  })
})

describe('Prefer: example=<name>', () => {
  let server: MockServer
  beforeAll(async () => {
    server = await startTestServer()
  })
  afterAll(() => server.close())

  it('answers with the named example of the success response', async () => {
    const res = await request(server.url).get(`/v2/subscribers/${ADA}`).set({ ...freshTenant(), Prefer: 'example=deleted' })
    expect(res.status).toBe(200)
    await expectContract('getSubscriber', res)
    expect(res.body).toMatchObject({ subscriberId: 'gone-1', deleted: true })
  })
})
