import SwaggerParser from '@apidevtools/swagger-parser'
import type { OpenAPIV3_1 } from 'openapi-types'
import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { MockServer } from '../../src/app/create-mock-server.ts'
import { API_DOCUMENT } from '../../src/contract/load-contract.ts'
import { expectContract } from '../helpers/expect-contract.ts'
import { freshTenant, startTestServer } from '../helpers/start-test-server.ts'

/**
 * A rule the mock keeps in code rather than in the document's schema is said in the description
 * of the parameter it bears on: a client, or a fuzzer, reading the document learns of it there
 * (docs/behaviour.md §2.4, §4).
 */
const BOTH_CURSORS = 'Cannot specify both "before" and "after" cursors at the same time.'

let server: MockServer
let parameters: Map<string, string>
beforeAll(async () => {
  server = await startTestServer()
  const document = (await SwaggerParser.dereference(API_DOCUMENT)) as OpenAPIV3_1.Document
  const list = document.paths!['/v1/channel-connections']!.get!.parameters as OpenAPIV3_1.ParameterObject[]
  parameters = new Map(list.map((parameter) => [parameter.name, parameter.description ?? '']))
})
afterAll(() => server.close())

describe('rules kept in code, said in the document', () => {
  it.each(['before', 'after'])('%s: the 400 for both cursors together, and what an unknown cursor answers', async (name) => {
    const description = parameters.get(name)!.replace(/\s+/g, ' ')
    expect(description).toContain('Rules kept in code, not in this schema')
    expect(description).toContain(`400 \`${BOTH_CURSORS}\``)
    expect(description).toContain('an unknown or malformed cursor answers an empty page')
    const res = await request(server.url).get('/v1/channel-connections?before=a&after=b').set(freshTenant())
    expect([res.status, res.body.message]).toEqual([400, BOTH_CURSORS])
    await expectContract('listChannelConnections', res)
  })

  it('idempotency-key: its length, its empty value, and its reuse', async () => {
    const document = (await SwaggerParser.dereference(API_DOCUMENT)) as OpenAPIV3_1.Document
    const header = (document.paths!['/v1/subscribers/{subscriberId}/credentials']!.patch!.parameters as OpenAPIV3_1.ParameterObject[]).find((p) => p.name === 'idempotency-key')!
    expect(header.description!.replace(/\s+/g, ' ')).toMatch(/Rules kept in code, not in this schema: a key longer than 255 characters is a 400; an empty one is no key/)
  })
})
