import { describe, expect, it } from 'vitest'
import { pageOf, type Page, type PageRequest } from './connection-page.ts'
import { ConnectionIndex, contextKeysKey, FILTER_FIELDS, valueOf, type ConnectionFilter } from './connection-index.ts'
import type { StoredChannelConnection } from '../../records.ts'
import { prng, type Random } from '../../../../test/helpers/prng.ts'

const SEED = 20261123
const pick = <T>(random: Random, values: readonly T[]): T => values[Math.floor(random() * values.length)]!

function connections(random: Random, count: number): StoredChannelConnection[] {
  return Array.from({ length: count }, (_, n) => {
    const channel = pick(random, ['chat', 'push'] as const)
    return {
      _id: n.toString(16).padStart(24, '0'),
      identifier: `endpoint-${n}`,
      channel,
      providerId: channel === 'chat' ? pick(random, ['slack', 'msteams'] as const) : pick(random, ['fcm', 'apns'] as const),
      integrationIdentifier: pick(random, ['a', 'b', null]),
      subscriberId: pick(random, ['s1', 's2', 's3', null]),
      contextKeys: pick(random, [[], ['tenant:acme'], ['tenant:acme', 'team:x'], ['team:x', 'tenant:acme', 'team:x']]),
      workspace: { id: 'T1' },
      auth: { accessToken: 'token' },
      // Few distinct timestamps, so ties (broken by _id) are common.
      createdAt: new Date(Date.UTC(2024, 0, 1 + Math.floor(random() * 20))).toISOString(),
      updatedAt: new Date(Date.UTC(2024, 1, 1 + Math.floor(random() * 20))).toISOString(),
    }
  })
}

/** The page by definition: sort everything, filter everything, then count positions. */
function referencePage(all: StoredChannelConnection[], request: PageRequest): Page {
  const key = (c: StoredChannelConnection) => [Date.parse(c[request.orderBy]), c._id] as const
  const ordered = [...all].sort((a, b) => {
    const [ka, ia] = key(a)
    const [kb, ib] = key(b)
    return ka !== kb ? ka - kb : ia < ib ? -1 : ia > ib ? 1 : 0
  })
  if (request.descending) ordered.reverse()
  const matches = (c: StoredChannelConnection) => FILTER_FIELDS.every((f) => request.filter[f] === undefined || valueOf(c, f) === request.filter[f])
  const matching = ordered.map((c, position) => ({ c, position })).filter(({ c }) => matches(c))
  const totalCount = matching.length
  const cursorId = request.after ?? request.before
  let window = matching
  if (cursorId !== undefined) {
    const cursor = ordered.findIndex((c) => c._id === cursorId)
    if (cursor === -1) return { items: [], next: null, previous: null, totalCount: 0, totalCountCapped: false }
    window =
      request.after !== undefined
        ? matching.filter(({ position }) => (request.includeCursor ? position >= cursor : position > cursor))
        : matching.filter(({ position }) => (request.includeCursor ? position <= cursor : position < cursor))
  }
  const picks = request.before !== undefined ? window.slice(Math.max(0, window.length - request.limit)) : window.slice(0, request.limit)
  if (picks.length === 0) return { items: [], next: null, previous: null, totalCount, totalCountCapped: false }
  const [first, last] = [picks[0]!, picks[picks.length - 1]!]
  return {
    items: picks.map(({ c }) => c),
    next: matching.some(({ position }) => position > last.position) ? last.c._id : null,
    previous: matching.some(({ position }) => position < first.position) ? first.c._id : null,
    totalCount,
    totalCountCapped: false,
  }
}

function randomFilter(random: Random): ConnectionFilter {
  const filter: ConnectionFilter = {}
  if (random() < 0.3) filter.channel = pick(random, ['chat', 'push', 'sms'])
  if (random() < 0.3) filter.providerId = pick(random, ['slack', 'msteams', 'fcm', 'apns'])
  if (random() < 0.3) filter.subscriberId = pick(random, ['s1', 's2', 's3', 'nobody'])
  if (random() < 0.2) filter.integrationIdentifier = pick(random, ['a', 'b'])
  if (random() < 0.3) filter.contextKeys = contextKeysKey(pick(random, [[], ['tenant:acme'], ['team:x', 'tenant:acme']]))
  return filter
}

describe('pageOf against the page by definition', () => {
  it('agrees on 2,000 random requests (filters, orders, cursors) over 300 connections', () => {
    const random = prng(SEED)
    const all = connections(random, 300)
    const index = ConnectionIndex.build(all)
    for (let run = 0; run < 2000; run++) {
      const cursor = random() < 0.7 ? pick(random, all)._id : undefined
      const side = random() < 0.5 ? 'after' : 'before'
      const request: PageRequest = {
        orderBy: pick(random, ['createdAt', 'updatedAt'] as const),
        descending: random() < 0.5,
        limit: 1 + Math.floor(random() * 15),
        includeCursor: random() < 0.5,
        filter: randomFilter(random),
        ...(cursor === undefined ? {} : { [side]: cursor }),
      }
      const ids = (page: Page) => ({ ...page, items: page.items.map((c) => c._id) })
      expect(ids(pageOf(index, request)), `seed ${SEED}, run ${run}: ${JSON.stringify(request)}`).toEqual(ids(referencePage(all, request)))
    }
  })
})
