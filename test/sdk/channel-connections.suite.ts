import type { ChannelConnectionsControllerListChannelConnectionsRequest as ListRequest } from '@novu/api/models/operations/index.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AppOptions } from '../../src/app/config.ts'
import type { MockServer } from '../../src/app/create-mock-server.ts'
import type { StoredChannelConnection } from '../../src/store/records.ts'
import { readState } from '../helpers/read-state.ts'
import { startTestServer } from '../helpers/start-test-server.ts'
import { sdkClient, walk } from './support.ts'
import { ADA } from '../helpers/well-known.ts'

type Field = 'createdAt' | 'updatedAt'

/** The order of docs/behaviour.md §2.4: the field, then the internal `_id`, in the same direction. */
function sorted(connections: StoredChannelConnection[], by: Field, direction: 'ASC' | 'DESC'): string[] {
  const sign = direction === 'ASC' ? 1 : -1
  return [...connections]
    .sort((a, b) => sign * (a[by].localeCompare(b[by]) || a._id.localeCompare(b._id)))
    .map((c) => c.identifier)
}

const sameKeys = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && [...a].sort().join('\n') === [...b].sort().join('\n')

export function channelConnectionsSuite(mode: string, options: AppOptions): void {
  describe(`channelConnections.list through @novu/api (${mode})`, () => {
    let server: MockServer
    let seeded: StoredChannelConnection[]
    beforeAll(async () => {
      server = await startTestServer(options)
      seeded = (await readState(server.url, sdkClient(server.url).auth)).channelConnections
      expect(seeded).toHaveLength(120)
    })
    afterAll(() => server.close())

    it('gives a first page of 10 by default, newest first', async () => {
      const { result } = await sdkClient(server.url).novu.channelConnections.list({})
      expect(result.data.map((c) => c.identifier)).toEqual(sorted(seeded, 'createdAt', 'DESC').slice(0, 10))
      expect(result).toMatchObject({ previous: null, totalCount: 120, totalCountCapped: false })
      expect(result.next).toEqual(expect.any(String))
      const first = seeded.find((c) => c.identifier === result.data[0]!.identifier)!
      const { _id, ...fields } = first // the internal `_id` stays out of the API
      expect(_id).toMatch(/^[0-9a-f]{24}$/)
      expect(result.data[0]).toEqual(fields)
    })

    it('walks forward with `after` until `next` is null: 120 items, each once, in order', async () => {
      const { novu } = sdkClient(server.url)
      const { pages, identifiers } = await walk(novu, { limit: 25 })
      expect(pages.map((p) => p.data.length)).toEqual([25, 25, 25, 25, 20])
      expect(pages.every((p) => p.totalCount === 120)).toBe(true)
      expect(pages.at(-1)!.next).toBeNull()
      expect(pages.slice(1).every((p) => typeof p.previous === 'string')).toBe(true)
      expect(identifiers).toEqual(sorted(seeded, 'createdAt', 'DESC'))
      expect(new Set(identifiers).size).toBe(120)
    })

    it('walks back with `before` from the last page to the first', async () => {
      const { novu } = sdkClient(server.url)
      const forward = await walk(novu, { limit: 25 })
      const last = forward.pages.at(-1)!
      const back = await walk(novu, { limit: 25, before: last.previous! }, 'before')
      expect(back.pages.map((p) => p.data.length)).toEqual([25, 25, 25, 25])
      expect(back.pages.at(-1)!.previous).toBeNull()
      expect(back.identifiers).toEqual(forward.identifiers.slice(0, 100))
    })

    it('includes the cursor item with includeCursor', async () => {
      const { novu } = sdkClient(server.url)
      const first = (await novu.channelConnections.list({ limit: 5 })).result
      const next = (await novu.channelConnections.list({ limit: 5, after: first.next!, includeCursor: true })).result
      expect(next.data.map((c) => c.identifier)).toEqual(sorted(seeded, 'createdAt', 'DESC').slice(4, 9))
    })

    it.each([
      ['createdAt', 'ASC'],
      ['updatedAt', 'ASC'],
      ['updatedAt', 'DESC'],
    ] as const)('orders by %s %s', async (orderBy, orderDirection) => {
      const { novu } = sdkClient(server.url)
      const { identifiers } = await walk(novu, { limit: 50, orderBy, orderDirection })
      expect(identifiers).toEqual(sorted(seeded, orderBy, orderDirection))
    })

    const filters: Array<[string, ListRequest, (c: StoredChannelConnection) => boolean]> = [
      ['subscriberId', { subscriberId: ADA }, (c) => c.subscriberId === ADA],
      ['channel', { channel: 'chat' }, (c) => c.channel === 'chat'],
      ['providerId', { providerId: 'apns' }, (c) => c.providerId === 'apns'],
      ['integrationIdentifier', { integrationIdentifier: 'fcm' }, (c) => c.integrationIdentifier === 'fcm'],
      ['contextKeys (one key)', { contextKeys: ['tenant:acme'] }, (c) => sameKeys(c.contextKeys, ['tenant:acme'])],
      [
        'contextKeys (two keys, any order)',
        { contextKeys: ['region:eu', 'tenant:acme'] },
        (c) => sameKeys(c.contextKeys, ['tenant:acme', 'region:eu']),
      ],
      ['contextKeys (one empty value: no context)', { contextKeys: [''] }, (c) => c.contextKeys.length === 0],
      [
        'channel, providerId and contextKeys together',
        { channel: 'push', providerId: 'fcm', contextKeys: ['tenant:acme'] },
        (c) => c.channel === 'push' && c.providerId === 'fcm' && sameKeys(c.contextKeys, ['tenant:acme']),
      ],
      ['a subscriber with no connections', { subscriberId: 'nobody' }, () => false],
    ]

    it.each(filters)('filters by %s, walking every page', async (_name, filter, matches) => {
      const { novu } = sdkClient(server.url)
      const expected = sorted(seeded.filter(matches), 'createdAt', 'DESC')
      const { pages, identifiers } = await walk(novu, { ...filter, limit: 7 })
      expect(identifiers).toEqual(expected)
      expect(pages.every((p) => p.totalCount === expected.length)).toBe(true)
      if (expected.length === 0) expect(pages[0]).toMatchObject({ data: [], next: null, previous: null })
      for (const item of pages.flatMap((p) => p.data)) {
        const stored = seeded.find((c) => c.identifier === item.identifier)!
        expect(matches(stored), item.identifier).toBe(true)
      }
    })

    it('sends contextKeys as repeated parameters', async () => {
      const client = sdkClient(server.url)
      await client.novu.channelConnections.list({ contextKeys: ['tenant:acme', 'region:eu'] })
      expect(client.sent[0]!.url.searchParams.getAll('contextKeys')).toEqual(['tenant:acme', 'region:eu'])
    })

    it('filters by the SDK\'s `connectionMode`, as the live service does', async () => {
      const { novu } = sdkClient(server.url)
      const linked = seeded.filter((c) => c.subscriberId !== null)
      const mine = await novu.channelConnections.list({ connectionMode: 'subscriber', limit: 3 })
      expect(mine.result.data.map((c) => c.identifier)).toEqual(sorted(linked, 'createdAt', 'DESC').slice(0, 3))
      expect(mine.result.totalCount).toBe(linked.length)
      const shared = await novu.channelConnections.list({ connectionMode: 'shared', limit: 100 })
      expect(shared.result.data.map((c) => c.identifier)).toEqual(sorted(seeded.filter((c) => c.subscriberId === null), 'createdAt', 'DESC'))
      expect(shared.result.data.every((c) => c.subscriberId === null)).toBe(true)
      expect(shared.result.totalCount + linked.length).toBe(120)
    })
  })
}
