import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { components } from '../../src/contract/generated/openapi-types.ts'
import type { MockServer } from '../../src/app/create-mock-server.ts'
import { expectContract } from '../helpers/expect-contract.ts'
import { freshTenant, startTestServer } from '../helpers/start-test-server.ts'
import { ADA } from '../helpers/well-known.ts'

type PageBody = components['schemas']['ChannelConnectionPage']
type Connection = components['schemas']['ChannelConnection']
type Known = { connection: Connection; id: string }

const PATH = '/v1/channel-connections'
const FIELDS = ['auth', 'channel', 'contextKeys', 'createdAt', 'identifier', 'integrationIdentifier', 'providerId', 'subscriberId', 'updatedAt', 'workspace']
const SEEDED = 120

let server: MockServer
let auth: { Authorization: string }
/** Every seeded connection in the default order (createdAt DESC) with its cursor id: the oracle. */
let oracle: Known[]

async function list(query: string, status = 200, target: MockServer = server) {
  const res = await request(target.url).get(query ? `${PATH}?${query}` : PATH).set(auth)
  expect(res.status, query).toBe(status)
  await expectContract('listChannelConnections', res)
  return res
}
const page = async (query: string): Promise<PageBody> => (await list(query)).body as PageBody
const join = (...parts: (string | undefined)[]) => parts.filter((p) => p !== undefined && p !== '').join('&')
const names = (items: readonly Connection[]) => items.map((c) => c.identifier)
const known = (items: readonly Known[]) => items.map((k) => k.connection.identifier)
const sameSet = (a: readonly string[], b: readonly string[]) => [...a].sort().join('\n') === [...b].sort().join('\n')

/** Pages from `query` (optionally from a cursor), following `next` (after=) or `previous` (before=) until null. */
async function walk(query: string, direction: 'next' | 'previous', start?: string): Promise<PageBody[]> {
  const pages: PageBody[] = []
  let cursor = start
  for (;;) {
    const param = cursor === undefined ? undefined : `${direction === 'next' ? 'after' : 'before'}=${cursor}`
    const body = await page(join(query, param))
    pages.push(body)
    if (body[direction] === null) return pages
    cursor = body[direction]
    if (pages.length > 400) throw new Error(`walk of ${query} does not end`)
  }
}

/** Forward walk, then back from the last page; checks both visit the same items exactly once. */
async function walkBothWays(query: string, expectedTotal: number): Promise<Connection[]> {
  const forward = await walk(query, 'next')
  const items = forward.flatMap((p) => p.data)
  expect(forward[0]!.previous).toBeNull()
  expect(forward.at(-1)!.next).toBeNull()
  forward.forEach((p, i) => {
    expect(p.totalCount).toBe(expectedTotal)
    expect(p.totalCountCapped).toBe(false)
    if (i > 0) expect(p.previous).not.toBeNull()
    if (i < forward.length - 1) expect(p.data.length).toBe(7)
  })
  expect(items.length).toBe(expectedTotal)
  expect(new Set(names(items)).size).toBe(expectedTotal)
  const last = forward.at(-1)!
  const back = last.previous === null ? [last] : [last, ...(await walk(query, 'previous', last.previous))]
  expect(back.at(-1)!.previous).toBeNull()
  back.slice(0, -1).forEach((p) => expect(p.previous).not.toBeNull())
  back.slice(1).forEach((p) => expect(p.next).not.toBeNull())
  expect(names(back.reverse().flatMap((p) => p.data))).toEqual(names(items))
  return items
}

beforeAll(async () => {
  server = await startTestServer()
  auth = freshTenant()
  // limit=1: each page's single item has id `next` (or `previous` on the last page).
  const pages = await walk('limit=1', 'next')
  oracle = pages.map((p) => ({ connection: p.data[0]!, id: (p.next ?? p.previous)! }))
}, 60_000)
afterAll(() => server.close())

describe('GET /v1/channel-connections', () => {
  it('default page: 10 items, createdAt DESC, all ten fields, no _id', async () => {
    const body = await page('')
    expect(body.data.length).toBe(10)
    expect(body.totalCount).toBe(SEEDED)
    expect(body.totalCountCapped).toBe(false)
    expect(body.next).toEqual(expect.any(String))
    expect(body.previous).toBeNull()
    for (const item of body.data) expect(Object.keys(item).sort()).toEqual(FIELDS)
    const times = body.data.map((c) => Date.parse(c.createdAt))
    times.slice(1).forEach((t, i) => expect(t).toBeLessThanOrEqual(times[i]!))
    expect(names(body.data)).toEqual(known(oracle.slice(0, 10)))
    expect(oracle.length).toBe(SEEDED)
  })

  describe.each(['createdAt', 'updatedAt'] as const)('full walks by %s', (orderBy) => {
    const seen: Partial<Record<'ASC' | 'DESC', string[]>> = {}
    it.each(['ASC', 'DESC'] as const)('%s, limit 7, forward and back', async (dir) => {
      const items = await walkBothWays(`limit=7&orderBy=${orderBy}&orderDirection=${dir}`, SEEDED)
      expect(new Set(names(items))).toEqual(new Set(known(oracle)))
      const times = items.map((c) => Date.parse(c[orderBy]))
      for (let i = 1; i < times.length; i++) {
        if (dir === 'ASC') expect(times[i]).toBeGreaterThanOrEqual(times[i - 1]!)
        else expect(times[i]).toBeLessThanOrEqual(times[i - 1]!)
      }
      seen[dir] = names(items)
      if (seen.ASC && seen.DESC) expect(seen.DESC).toEqual([...seen.ASC].reverse()) // ties break on _id both ways
    })
  })

  const bothKeys = (c: Connection) => sameSet(c.contextKeys, ['tenant:acme', 'region:eu'])
  const FILTERS: [string, (c: Connection) => boolean][] = [
    ['channel=push', (c) => c.channel === 'push'],
    [`subscriberId=${ADA}`, (c) => c.subscriberId === ADA],
    ['providerId=slack', (c) => c.providerId === 'slack'],
    ['integrationIdentifier=fcm', (c) => c.integrationIdentifier === 'fcm'],
    ['contextKeys=tenant:acme&contextKeys=region:eu', bothKeys],
    ['contextKeys[]=region:eu&contextKeys[]=tenant:acme', bothKeys],
    ['contextKeys=tenant:acme', (c) => sameSet(c.contextKeys, ['tenant:acme'])],
    ['contextKeys=', (c) => c.contextKeys.length === 0],
    ['channel=push&contextKeys=tenant:acme', (c) => c.channel === 'push' && sameSet(c.contextKeys, ['tenant:acme'])],
  ]
  it.each(FILTERS)('walk with %s matches the oracle', async (filter, matches) => {
    const expected = oracle.filter((k) => matches(k.connection))
    expect(expected.length).toBeGreaterThan(0)
    expect(expected.length).toBeLessThan(SEEDED)
    const items = await walkBothWays(`limit=7&${filter}`, expected.length)
    for (const item of items) expect(matches(item), `${item.identifier} under ${filter}`).toBe(true)
    expect(names(items)).toEqual(known(expected))
  })

  it('contextKeys: exact set, order-insensitive; a subset excludes connections having more', async () => {
    const both = await page('limit=100&contextKeys=tenant:acme&contextKeys=region:eu')
    const reordered = await page('limit=100&contextKeys[]=region:eu&contextKeys[]=tenant:acme')
    expect(names(reordered.data)).toEqual(names(both.data))
    expect(both.data.length).toBeGreaterThan(0)
    for (const c of both.data) expect([...c.contextKeys].sort()).toEqual(['region:eu', 'tenant:acme'])
    const one = await page('limit=100&contextKeys=tenant:acme')
    expect(one.data.length).toBeGreaterThan(0)
    for (const c of one.data) expect(c.contextKeys).toEqual(['tenant:acme'])
    const none = await page('limit=100&contextKeys=')
    expect(none.data.length).toBeGreaterThan(0)
    for (const c of none.data) expect(c.contextKeys).toEqual([])
    expect(one.totalCount + both.totalCount + none.totalCount).toBe(SEEDED)
  })

  it('includeCursor=true puts the cursor item first after it, last before it, and counts it in limit', async () => {
    const x = oracle[10]!
    const after = await page(`limit=5&includeCursor=true&after=${x.id}`)
    expect(names(after.data)).toEqual(known(oracle.slice(10, 15)))
    expect(after.previous).toBe(x.id)
    expect(after.next).toBe(oracle[14]!.id)
    const before = await page(`limit=5&includeCursor=true&before=${x.id}`)
    expect(names(before.data)).toEqual(known(oracle.slice(6, 11)))
    expect(before.next).toBe(x.id)
    expect(before.previous).toBe(oracle[6]!.id)
    const plainAfter = await page(`limit=5&after=${x.id}`)
    expect(names(plainAfter.data)).toEqual(known(oracle.slice(11, 16)))
    const plainBefore = await page(`limit=5&before=${x.id}`)
    expect(names(plainBefore.data)).toEqual(known(oracle.slice(5, 10)))
  })

  it('after and before together: 400 with the exact message', async () => {
    const res = await list(`after=${oracle[1]!.id}&before=${oracle[5]!.id}`, 400)
    expect(res.body.message).toBe('Cannot specify both "before" and "after" cursors at the same time.')
    expect(res.body.statusCode).toBe(400)
    const garbage = await list('after=nope&before=nope', 400)
    expect(garbage.body.message).toBe('Cannot specify both "before" and "after" cursors at the same time.')
  })

  const absent = 'ffffffffffffffffffffffff'
  it.each([`after=${absent}`, `before=${absent}`, 'after=not-a-cursor', 'before=not-a-cursor', `after=${absent}&channel=push`])(
    'unknown cursor %s: empty page',
    async (query) => {
      expect(oracle.some((k) => k.id === absent)).toBe(false)
      const body = await page(query)
      expect(body).toEqual({ data: [], next: null, previous: null, totalCount: 0, totalCountCapped: false })
    },
  )

  const CHANNELS = 'in_app, email, sms, chat, push'
  /** Each request and the one message the live service's validator words for it (docs/behaviour.md §1.2). */
  const INVALID: [string, string][] = [
    ['limit=0', 'limit must not be less than 1'],
    ['limit=101', 'limit must not be greater than 100'],
    ['limit=abc', 'limit must be an integer number'],
    ['limit=1.5', 'limit must be an integer number'],
    ['limit=', 'limit must be an integer number'],
    ['limit=5&limit=6', 'limit must be an integer number'],
    ['orderBy=createdAt&orderBy=updatedAt', 'orderBy must be a string'],
    ['orderBy=name', 'orderBy must be one of the following values: createdAt, updatedAt'],
    ['orderDirection=up', 'orderDirection must be one of the following values: ASC, DESC'],
    ['orderDirection=', 'orderDirection must be one of the following values: ASC, DESC'],
    ['channel=fax', `channel must be one of the following values: ${CHANNELS}`],
    ['channel=', `channel must be one of the following values: ${CHANNELS}`],
    ['connectionMode=all', 'connectionMode must be one of the following values: subscriber, shared'],
    ['connectionMode=', 'connectionMode must be one of the following values: subscriber, shared'],
    ['includeCursor=maybe', 'includeCursor must be a boolean value'],
    ['after=x&before=y&limit=101', 'limit must not be greater than 100'], // the document is checked before the both-cursors 400
  ]
  it.each(INVALID)('%s: 422 with the message "%s" under general', async (query, message) => {
    const res = await list(query, 422)
    expect(res.body.message).toBe('Validation Error')
    expect(res.body.errors).toEqual({ general: { messages: [message], value: 'No Value Recorded' } })
  })

  it.each(['providerId=carrier-pigeon', 'providerId='])('%s: 422 listing every provider of the document', async (query) => {
    const res = await list(query, 422)
    const [message] = res.body.errors.general.messages as string[]
    // The interface's values, then Novu 3.19's that it lacks (docs/behaviour.md §2.4).
    expect(message).toMatch(/^providerId must be one of the following values: emailjs, mailgun, .*, chat-webhook, service-slack, anypost, .*, telegram, sendblue, anthropic, .*, tool-webhook$/)
  })

  it('422 lists every broken parameter, one message each, in one general entry', async () => {
    const res = await list('limit=0&orderBy=name&channel=fax', 422)
    expect(Object.keys(res.body.errors)).toEqual(['general'])
    expect([...res.body.errors.general.messages].sort()).toEqual([
      `channel must be one of the following values: ${CHANNELS}`,
      'limit must not be less than 1',
      'orderBy must be one of the following values: createdAt, updatedAt',
    ])
  })

  it.each(['after=', 'before=', 'after=&before='])('%s: an empty cursor is no cursor (the first page)', async (query) => {
    expect(await page(`limit=5&${query}`)).toEqual(await page('limit=5'))
  })

  it('an empty cursor beside a real one is no cursor: no 400 for both', async () => {
    const first = await page('limit=5')
    expect(await page(`limit=5&before=&after=${first.next}`)).toEqual(await page(`limit=5&after=${first.next}`))
  })

  it.each(['subscriberId=', 'integrationIdentifier='])('%s: an empty filter is no filter', async (query) => {
    const all = await page('limit=100')
    expect(await page(`limit=100&${query}`)).toEqual(all)
  })

  it('a cursor excluded by the filters still marks its position', async () => {
    const at = oracle.findIndex((k, i) => i > 20 && k.connection.channel === 'chat')
    expect(at).toBeGreaterThan(0)
    const x = oracle[at]!
    const push = (items: Known[]) => known(items.filter((k) => k.connection.channel === 'push'))
    const after = await page(`limit=100&channel=push&after=${x.id}`)
    expect(names(after.data)).toEqual(push(oracle.slice(at + 1)))
    expect(after.totalCount).toBe(push(oracle).length)
    const before = await page(`limit=100&channel=push&before=${x.id}`)
    expect(names(before.data)).toEqual(push(oracle.slice(0, at)))
    const included = await page(`limit=100&channel=push&includeCursor=true&after=${x.id}`)
    expect(names(included.data)).toEqual(push(oracle.slice(at + 1)))
  })

  it('totalCount stops at 50,000 and totalCountCapped says so', async () => {
    const big = await startTestServer({ volumes: { subscribers: 50, channelConnections: 50_050 } })
    try {
      const all = (await list('limit=1', 200, big)).body as PageBody
      expect(all.totalCount).toBe(50_000)
      expect(all.totalCountCapped).toBe(true)
      const push = (await list('limit=1&channel=push', 200, big)).body as PageBody
      expect(push.totalCount).toBeGreaterThan(0)
      expect(push.totalCount).toBeLessThan(50_000)
      expect(push.totalCountCapped).toBe(false)
    } finally {
      await big.close()
    }
  }, 60_000)
})

describe('GET /v1/channel-connections: connectionMode', () => {
  const shared = () => oracle.filter((k) => k.connection.subscriberId === null)

  it('the seed holds about one shared connection in ten, within the 120', () => {
    expect(oracle.length).toBe(SEEDED)
    expect(shared().length).toBeGreaterThanOrEqual(8)
    expect(shared().length).toBeLessThanOrEqual(16)
  })

  it('shared keeps the connections linked to no subscriber, subscriber the others', async () => {
    const sharedPage = await page('limit=100&connectionMode=shared')
    expect(names(sharedPage.data)).toEqual(known(shared()))
    expect(sharedPage.totalCount).toBe(shared().length)
    const subscriberPage = await page('limit=100&connectionMode=subscriber')
    expect(subscriberPage.data.every((c) => c.subscriberId !== null)).toBe(true)
    expect(subscriberPage.totalCount + sharedPage.totalCount).toBe(SEEDED)
  })

  it('shared ignores subscriberId; a subscriberId alone implies subscriber', async () => {
    expect(names((await page(`limit=100&subscriberId=${ADA}&connectionMode=shared`)).data)).toEqual(known(shared()))
    const own = await page(`limit=100&subscriberId=${ADA}`)
    expect(own.data.length).toBeGreaterThan(0)
    expect(await page(`limit=100&subscriberId=${ADA}&connectionMode=subscriber`)).toEqual(own)
  })

  it('the demo data set holds shared connections too', async () => {
    const demo = await startTestServer({ demo: true })
    try {
      const body = (await list('limit=100&connectionMode=shared', 200, demo)).body as PageBody
      expect(body.totalCount).toBeGreaterThan(0)
      expect(body.data.every((c) => c.subscriberId === null)).toBe(true)
      const all = (await list('limit=1', 200, demo)).body as PageBody
      expect(body.totalCount / all.totalCount).toBeLessThan(0.2)
    } finally {
      await demo.close()
    }
  })
})
