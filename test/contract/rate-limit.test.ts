import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { MockServer } from '../../src/app/create-mock-server.ts'
import { parseRateLimit, RateLimiter } from '../../src/policies/rate-limit/rate-limiter.ts'
import { expectContract } from '../helpers/expect-contract.ts'
import { freshTenant, startTestServer } from '../helpers/start-test-server.ts'
import { ADA, adaMessage, GRACE, INTEGRATIONS } from '../helpers/well-known.ts'

const POLICY = /^\d+;w=\d+(\.\d+)?;burst=\d+;comment="token bucket";category="configuration";cost="single";serviceLevel="mock"$/
const policyOf = (category: string) => `100;w=1;burst=110;comment="token bucket";category="${category}";cost="single";serviceLevel="mock"`

describe('rate-limit headers without a configured limit', () => {
  let server: MockServer
  beforeAll(async () => {
    server = await startTestServer()
  })
  afterAll(() => server.close())

  it('sends the headers on every answer of a tenant and never refuses', async () => {
    const auth = freshTenant()
    for (let i = 0; i < 120; i++) {
      const res = await request(server.url).get(`/v2/subscribers/${GRACE}`).set(auth)
      expect(res.status).toBe(200)
      expect(res.headers['ratelimit-limit']).toBe('100')
      expect(res.headers['ratelimit-policy']).toMatch(POLICY)
      // The burst (110) lets the bucket hold more than the limit; the header never says so.
      expect(Number(res.headers['ratelimit-remaining'])).toBeLessThanOrEqual(100)
    }
  })

  it('gives each tenant its own bucket, its remaining never above the limit', async () => {
    const res = await request(server.url).get('/v1/channel-connections').set(freshTenant())
    expect(res.headers['ratelimit-remaining']).toBe('100')
    await expectContract('listChannelConnections', res)
  })

  it('names the category global for set-primary, configuration for the others', async () => {
    const auth = freshTenant()
    const primary = await request(server.url).post(`/v1/integrations/${INTEGRATIONS.mailgun}/set-primary`).set(auth)
    expect(primary.status).toBe(200)
    expect(primary.headers['ratelimit-policy']).toBe(policyOf('global'))
    const read = await request(server.url).get(`/v2/subscribers/${GRACE}`).set(auth)
    expect(read.headers['ratelimit-policy']).toBe(policyOf('configuration'))
  })
})

describe('--rate-limit 3/60', () => {
  let server: MockServer
  beforeAll(async () => {
    server = await startTestServer({ rateLimit: { limit: 3, windowSeconds: 60 } })
  })
  afterAll(() => server.close())

  it('answers 429 with an ErrorDto and Retry-After equal to RateLimit-Reset once the burst is spent, and changes nothing', async () => {
    const auth = freshTenant()
    const markRead = () =>
      request(server.url)
        .post(`/v1/subscribers/${ADA}/messages/mark-as`)
        .set(auth)
        .send({ messageId: adaMessage(1), markAs: 'read' })
    for (let i = 0; i < 4; i++) expect((await markRead()).status).toBe(201) // burst = ceil(3 × 1.1)
    const refused = await markRead()
    expect(refused.status).toBe(429)
    expect(refused.body).toMatchObject({ statusCode: 429, message: 'API rate limit exceeded', error: 'Too Many Requests' })
    // One token comes back every 20 s (3 per 60 s): the wait until a call would be accepted.
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1)
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(20)
    expect(refused.headers['ratelimit-reset']).toBe(refused.headers['retry-after'])
    expect(refused.headers['ratelimit-remaining']).toBe('0')
    await expectContract('markMessagesAs', refused)
    const journal = await request(server.url).get('/__admin/requests?status=201').set(auth)
    expect(journal.body.requests).toHaveLength(4)
  })

  it('checks the limit after authentication: a call without a key is a 401, not a 429', async () => {
    const res = await request(server.url).get(`/v2/subscribers/${ADA}`)
    expect(res.status).toBe(401)
    await expectContract('getSubscriber', res)
  })
})

describe('RateLimiter (clock given)', () => {
  it('counts down from the burst, refills with time, and refuses only when enforced', () => {
    const counted = new RateLimiter({ limit: 10, windowSeconds: 1 }, false)
    const remaining = Array.from({ length: 12 }, () => Number(counted.take('t', 0, 'getSubscriber')['RateLimit-Remaining']))
    expect(remaining).toEqual([10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 0])
    expect(counted.take('t', 500, 'getSubscriber')['RateLimit-Remaining']).toBe('4') // 5 tokens back after 0.5 s, one taken
    const enforced = new RateLimiter({ limit: 1, windowSeconds: 10 }, true)
    enforced.take('t', 0, 'getSubscriber')
    enforced.take('t', 0, 'getSubscriber')
    expect(() => enforced.take('t', 0, 'getSubscriber')).toThrow('API rate limit exceeded')
    expect(enforced.take('t', 10_000, 'getSubscriber')['RateLimit-Remaining']).toBe('0')
  })
})

describe('parseRateLimit', () => {
  it.each([
    ['100/1', { limit: 100, windowSeconds: 1 }],
    ['5/0.5', { limit: 5, windowSeconds: 0.5 }],
    ['0/1', undefined],
    ['100', undefined],
    ['a/b', undefined],
  ])('%s', (text, expected) => expect(parseRateLimit(text)).toEqual(expected))
})
