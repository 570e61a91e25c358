import { setupServer } from 'msw/node'
import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startMockServer, type MockServer } from 'novu-mock'
import { createNovuMock, type NovuMock } from '../../src/msw/index.ts'
import { ADA, INTEGRATIONS } from '../helpers/well-known.ts'
import { scriptedCalls } from './helpers.ts'

describe('tenant.pact: the export in process', () => {
  let server: MockServer
  beforeAll(async () => {
    server = await startMockServer({ port: 0 })
  })
  afterAll(() => server.close())

  it('is the document GET /__admin/pact answers', async () => {
    const auth = { Authorization: 'ApiKey library-key' }
    await scriptedCalls(server, auth)
    const overHttp = await request(server.url).get('/__admin/pact?consumer=web-app&statuses=all').set(auth)
    expect(await server.tenant('library-key').pact({ consumer: 'web-app', statuses: 'all' })).toEqual(overHttp.body)
    await expect(server.tenant('library-key').pact({ consumer: '' })).rejects.toThrow(/pact: 422/)
  })
})

describe('the msw mount: tenant(apiKey).pact', () => {
  let novu: NovuMock
  const msw = setupServer()
  beforeAll(async () => {
    novu = await createNovuMock()
    msw.use(...novu.handlers)
    msw.listen({ onUnhandledRequest: 'error' })
  })
  afterAll(async () => {
    msw.close()
    await novu.close()
  })

  it('exports the calls made through msw, paths as the API names them', async () => {
    const headers = { Authorization: 'ApiKey msw-pact-key' }
    expect((await fetch(`https://api.novu.co/v2/subscribers/${ADA}`, { headers })).status).toBe(200)
    expect((await fetch(`https://api.novu.co/v1/integrations/${INTEGRATIONS.mailgun}/set-primary`, { method: 'POST', headers })).status).toBe(200)
    const pact = await novu.tenant('msw-pact-key').pact({ consumer: 'web-app' })
    expect(pact.interactions.map(({ description, request: { method, path } }) => [description, method, path])).toEqual([
      ['#1 getSubscriber demo-subscriber-1', 'GET', `/v2/subscribers/${ADA}`],
      [`#2 setPrimaryIntegration ${INTEGRATIONS.mailgun}`, 'POST', `/v1/integrations/${INTEGRATIONS.mailgun}/set-primary`],
    ])
  })
})
