import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { MockServer } from '../../src/app/create-mock-server.ts'
import { expectContract } from '../helpers/expect-contract.ts'
import { rawRequest } from '../helpers/raw-request.ts'
import { startTestServer } from '../helpers/start-test-server.ts'

const AUTH = { Authorization: 'ApiKey fault-headers', 'Content-Type': 'application/json' }

describe('a fault rule whose headers HTTP cannot carry (docs/behaviour.md §6)', () => {
  let mock: MockServer
  beforeAll(async () => {
    mock = await startTestServer()
  })
  afterAll(() => mock.close())

  const addFault = (headers: Record<string, string>) =>
    rawRequest(`${mock.url}/__admin/faults`, { method: 'POST', headers: AUTH, body: JSON.stringify({ match: { operationId: 'getSubscriber' }, respond: { status: 500, headers } }) })

  it.each([
    [{ 'X-Bad': 'a\r\nb' }, 'X-Bad'],
    [{ 'X-Bad': 'a\nSet-Cookie: x=1' }, 'X-Bad'],
    [{ 'X-Bad': 'snow ☃' }, 'X-Bad'],
    [{ 'X Bad': 'x' }, 'X Bad'],
    [{ 'X-Bad:': 'x' }, 'X-Bad:'],
    [{ '': 'x' }, ''],
  ])('refuses %j with a 422 naming it, adding nothing', async (headers, named) => {
    const answer = await addFault(headers)
    expect(answer.status).toBe(422)
    await expectContract('addFault', answer, 'admin')
    const errors = (answer.body as { errors: Record<string, { messages: string[] }> }).errors
    const said = Object.entries(errors).flatMap(([field, { messages }]) => messages.map((message) => `${field}: ${message}`))
    expect(said.some((line) => line.startsWith(`respond.headers.${named}:`) || line.includes(`property name ${JSON.stringify(named)}`)), said.join('\n')).toBe(true)
    const list = await rawRequest(`${mock.url}/__admin/faults`, { headers: AUTH })
    expect(list.body).toEqual({ faults: [] })
    expect((await rawRequest(`${mock.url}/v2/subscribers/demo-subscriber-1`, { headers: AUTH })).status).toBe(200)
  })

  it.each(['Content-Length', 'transfer-encoding', 'Connection', 'KEEP-ALIVE', 'Upgrade', 'TE', 'Trailer', 'host'])(
    'refuses the framing or hop-by-hop header %s with a 422 naming it, adding nothing',
    async (name) => {
      const answer = await addFault({ 'X-Fine': 'yes', [name]: name.toLowerCase() === 'content-length' ? '0' : 'x' })
      expect(answer.status).toBe(422)
      await expectContract('addFault', answer, 'admin')
      const errors = (answer.body as { errors: Record<string, { messages: string[] }> }).errors
      expect(Object.keys(errors)).toEqual([`respond.headers.${name}`])
      expect(errors[`respond.headers.${name}`]!.messages[0]).toContain(name)
      expect((await rawRequest(`${mock.url}/__admin/faults`, { headers: AUTH })).body).toEqual({ faults: [] })
      expect((await rawRequest(`${mock.url}/v2/subscribers/demo-subscriber-1`, { headers: AUTH })).status).toBe(200)
    },
  )

  it('takes headers HTTP carries, Latin-1 included, and answers with them', async () => {
    const answer = await addFault({ 'X-Fault': 'café, tab\there', "x-!#$%&'*+.^_`|~": 'ok' })
    expect(answer.status).toBe(201)
    const call = await rawRequest(`${mock.url}/v2/subscribers/demo-subscriber-1`, { headers: AUTH })
    expect(call.status).toBe(500)
    expect(call.headers['x-fault']).toMatch(/^caf.+, tab\there$/)
    expect(call.headers["x-!#$%&'*+.^_`|~"]).toBe('ok')
  })
})
