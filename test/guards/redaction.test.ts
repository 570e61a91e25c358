import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { MockServer } from '../../src/app/create-mock-server.ts'
import { createLogger } from '../../src/log/logger.ts'
import { openEvents } from '../helpers/event-stream.ts'
import { expectContract } from '../helpers/expect-contract.ts'
import { rawRequest } from '../helpers/raw-request.ts'
import { startTestServer } from '../helpers/start-test-server.ts'

const SECRET_HEADERS = ['x-api-key', 'api-key', 'apikey', 'x-auth-token', 'x-access-token', 'X-Api-Key']
const SECRET_PARAMETERS = ['apiKey', 'api_key', 'token', 'access_token', 'secret', 'TOKEN', 'ApiKey']

describe('secrets in headers and query parameters (docs/behaviour.md §6)', () => {
  const lines: string[] = []
  let mock: MockServer
  beforeAll(async () => {
    mock = await startTestServer({ logger: createLogger('debug', { write: (line: string) => void lines.push(line) }) })
  })
  afterAll(() => mock.close())

  it('are redacted in the journal, the event stream and the log', async () => {
    const auth = { Authorization: 'ApiKey redaction-key' }
    const events = await openEvents(`${mock.url}/__admin/events`, auth)
    try {
      expect((await events.next())?.event).toBe('ready')
      const headers = Object.fromEntries(SECRET_HEADERS.map((name, i) => [name, `hdr-s3cret-${i}`]))
      const query = SECRET_PARAMETERS.map((name, i) => `${name}=qry-s3cret-${i}`).join('&')
      const call = await rawRequest(`${mock.url}/v1/channel-connections?limit=5&${query}`, { headers: { ...auth, ...headers } })
      expect(call.status).toBe(200)
      const streamed = await events.next()
      expect(streamed?.event).toBe('request')
      const journal = await rawRequest(`${mock.url}/__admin/requests`, { headers: auth })
      await expectContract('listRequests', journal, 'admin')
      const [entry] = (journal.body as { requests: { headers: Record<string, string>; query: Record<string, unknown> }[] }).requests
      for (const shown of [JSON.stringify(entry), streamed!.data, lines.join('')]) expect(shown).not.toMatch(/s3cret/)
      for (const name of SECRET_HEADERS) expect(entry!.headers[name.toLowerCase()]).toBe('[redacted]')
      for (const name of SECRET_PARAMETERS) expect(entry!.query[name]).toBe('[redacted]')
      expect(entry!.query.limit).toBe('5')
      expect(lines.length).toBeGreaterThan(0)
    } finally {
      events.close()
    }
  })
  it('are redacted where an error body repeats the URL (its path)', async () => {
    const auth = { Authorization: 'ApiKey redaction-path-key' }
    const refused = await rawRequest(`${mock.url}/v2/subscribers/nobody-here?token=path-s3cret&apiKey=path-s3cret-2`, { headers: auth })
    expect(refused.status).toBe(404)
    expect(JSON.stringify(refused.body)).toMatch(/path-s3cret/) // the client gets its own URL back, as the live service answers
    const journal = await rawRequest(`${mock.url}/__admin/requests`, { headers: auth })
    await expectContract('listRequests', journal, 'admin')
    const [entry] = (journal.body as { requests: { responseBody: { path: string } }[] }).requests
    expect(JSON.stringify(entry)).not.toMatch(/s3cret/)
    expect(entry!.responseBody.path).toBe('/v2/subscribers/nobody-here?token=[redacted]&apiKey=[redacted]')
  })
})
