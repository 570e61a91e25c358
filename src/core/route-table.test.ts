import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { RouteTable } from './route-table.ts'
import type { MockServer } from '../app/create-mock-server.ts'
import { expectContract } from '../../test/helpers/expect-contract.ts'
import { freshTenant, startTestServer } from '../../test/helpers/start-test-server.ts'
import { ADA } from '../../test/helpers/well-known.ts'

describe('RouteTable', () => {
  const table = new RouteTable<string>()
  table.add('GET', '/v2/subscribers/{subscriberId}', 'getSubscriber')
  table.add('POST', '/v1/subscribers/{subscriberId}/messages/mark-as', 'markMessagesAs')

  it('matches the template and decodes its parameters', () => {
    expect(table.match('GET', '/v2/subscribers/ada%20l')).toEqual({ value: 'getSubscriber', params: { subscriberId: 'ada l' } })
    expect(table.match('POST', '/v1/subscribers/x/messages/mark-as')?.value).toBe('markMessagesAs')
  })

  it.each([
    ['another method', 'POST', '/v2/subscribers/x'],
    ['another case', 'GET', '/V2/Subscribers/x'],
    ['a trailing slash', 'GET', '/v2/subscribers/x/'],
    ['an empty parameter', 'GET', '/v2/subscribers/'],
    ['an extra segment', 'GET', '/v2/subscribers/x/y'],
  ])('matches no route with %s, strictly', (_case, method, path) => {
    expect(table.match(method, path)).toBeUndefined()
  })

  it('matches another case and a trailing slash leniently, as express does', () => {
    expect(table.match('GET', '/V2/Subscribers/x/', { lenient: true })).toEqual({ value: 'getSubscriber', params: { subscriberId: 'x' } })
  })

  it('names the segment of a malformed escape, for the 400 express answers', () => {
    expect(table.match('GET', '/v2/subscribers/%E0%A4%A')).toEqual({ value: 'getSubscriber', params: {}, malformed: '%E0%A4%A' })
  })
})

/** The spellings express's router takes are answered as express always answered them. */
describe('spellings other than the canonical one', () => {
  let server: MockServer
  beforeAll(async () => {
    server = await startTestServer()
  })
  afterAll(() => server.close())

  it.each([`/v2/subscribers/${ADA}/`, `/V2/SUBSCRIBERS/${ADA}`])('%s still answers the subscriber', async (path) => {
    const res = await request(server.url).get(path).set(freshTenant())
    expect(res.status).toBe(200)
    expect(res.body.subscriberId).toBe(ADA)
    await expectContract('getSubscriber', res)
  })

  it('a malformed escape in a parameter is a 400 ErrorDto, not a 500', async () => {
    const res = await request(server.url).get('/v2/subscribers/%E0%A4%A').set(freshTenant())
    expect(res.status).toBe(400)
    expect(res.body).toMatchObject({ statusCode: 400, path: '/v2/subscribers/%E0%A4%A', message: "Failed to decode param '%E0%A4%A'" })
  })

  it('a HEAD is answered as its GET, without the body', async () => {
    const res = await request(server.url).head(`/v2/subscribers/${ADA}`).set(freshTenant())
    expect(res.status).toBe(200)
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8')
  })
})
