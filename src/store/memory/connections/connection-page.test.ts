import { describe, expect, it } from 'vitest'
import { pageOf, TOTAL_COUNT_CAP, type Page, type PageRequest } from './connection-page.ts'
import { ConnectionIndex } from './connection-index.ts'
import type { StoredChannelConnection } from '../../records.ts'

const id = (n: number) => n.toString(16).padStart(24, '0')
const T = (n: number) => `2024-06-0${n + 1}T00:00:00.000Z`

function conn(n: number, created: number, updated: number, channel: 'chat' | 'push' = 'chat'): StoredChannelConnection {
  return {
    _id: id(n),
    identifier: `endpoint-${n}`,
    channel,
    providerId: channel === 'chat' ? 'slack' : 'fcm',
    integrationIdentifier: channel === 'chat' ? 'slack' : 'fcm',
    subscriberId: 'subscriber-1',
    contextKeys: [],
    workspace: { id: 'T1' },
    auth: { accessToken: 'token' },
    createdAt: T(created),
    updatedAt: T(updated),
  }
}

// Ties on both timestamps, so `_id` decides; pushed in a scrambled order.
// createdAt ASC: 6(T0) 2(T1) 4(T1) 1(T2) 3(T2) 5(T3)    updatedAt ASC: 5(U0) 3(U1) 4(U3) 6(U3) 1(U5) 2(U5)
const RECORDS = [conn(3, 2, 1, 'push'), conn(5, 3, 0), conn(1, 2, 5), conn(6, 0, 3, 'push'), conn(2, 1, 5, 'push'), conn(4, 1, 3)]
const CREATED_ASC = [6, 2, 4, 1, 3, 5]
const UPDATED_ASC = [5, 3, 4, 6, 1, 2]
const index = ConnectionIndex.build(RECORDS)

function page(overrides: Partial<PageRequest> = {}, from: ConnectionIndex = index): Page {
  return pageOf(from, { orderBy: 'createdAt', descending: false, limit: 10, includeCursor: false, filter: {}, ...overrides })
}
const ids = (p: Page) => p.items.map((c) => Number.parseInt(c._id, 16))
const cursors = (p: Page) => ({ previous: p.previous === null ? null : Number.parseInt(p.previous, 16), next: p.next === null ? null : Number.parseInt(p.next, 16) })
const isPush = { channel: 'push' }

describe('pageOf: order', () => {
  it.each([
    ['createdAt', false, CREATED_ASC],
    ['createdAt', true, [...CREATED_ASC].reverse()],
    ['updatedAt', false, UPDATED_ASC],
    ['updatedAt', true, [...UPDATED_ASC].reverse()],
  ] as const)('%s descending=%s breaks ties on _id in the same direction', (orderBy, descending, expected) => {
    const p = page({ orderBy, descending })
    expect(ids(p)).toEqual(expected)
    expect(cursors(p)).toEqual({ previous: null, next: null })
    expect(p.totalCount).toBe(6)
    expect(p.totalCountCapped).toBe(false)
  })

  it('first page: previous null, next is the last item', () => {
    const p = page({ limit: 2 })
    expect(ids(p)).toEqual([6, 2])
    expect(cursors(p)).toEqual({ previous: null, next: 2 })
  })
})

describe('pageOf: cursors', () => {
  it('after a tied item starts at its tie partner', () => {
    const p = page({ limit: 2, after: id(2) })
    expect(ids(p)).toEqual([4, 1])
    expect(cursors(p)).toEqual({ previous: 4, next: 1 })
  })

  it('after in DESC follows the DESC order', () => {
    const p = page({ descending: true, limit: 2, after: id(4) })
    expect(ids(p)).toEqual([2, 6])
    expect(cursors(p)).toEqual({ previous: 2, next: null })
  })

  it('before returns the limit items just before, in the sort order', () => {
    const p = page({ limit: 2, before: id(1) })
    expect(ids(p)).toEqual([2, 4])
    expect(cursors(p)).toEqual({ previous: 2, next: 4 })
  })

  it('includeCursor counts the cursor item within limit', () => {
    const after = page({ limit: 2, after: id(2), includeCursor: true })
    expect(ids(after)).toEqual([2, 4])
    expect(cursors(after)).toEqual({ previous: 2, next: 4 })
    const before = page({ limit: 2, before: id(1), includeCursor: true })
    expect(ids(before)).toEqual([4, 1])
    expect(cursors(before)).toEqual({ previous: 4, next: 1 })
  })

  it('cursor at the first position', () => {
    const before = page({ before: id(6) })
    expect(before).toEqual({ items: [], next: null, previous: null, totalCount: 6, totalCountCapped: false })
    const beforeIncluded = page({ before: id(6), includeCursor: true })
    expect(ids(beforeIncluded)).toEqual([6])
    expect(cursors(beforeIncluded)).toEqual({ previous: null, next: 6 })
    const afterIncluded = page({ after: id(6), includeCursor: true })
    expect(ids(afterIncluded)).toEqual(CREATED_ASC)
    expect(cursors(afterIncluded)).toEqual({ previous: null, next: null })
    const after = page({ after: id(6) })
    expect(ids(after)).toEqual(CREATED_ASC.slice(1))
    expect(cursors(after)).toEqual({ previous: 2, next: null })
  })

  it('cursor at the last position', () => {
    const after = page({ after: id(5) })
    expect(after).toEqual({ items: [], next: null, previous: null, totalCount: 6, totalCountCapped: false })
    const afterIncluded = page({ after: id(5), includeCursor: true })
    expect(ids(afterIncluded)).toEqual([5])
    expect(cursors(afterIncluded)).toEqual({ previous: 5, next: null })
    const beforeIncluded = page({ before: id(5), includeCursor: true })
    expect(ids(beforeIncluded)).toEqual(CREATED_ASC)
    expect(cursors(beforeIncluded)).toEqual({ previous: null, next: null })
    const before = page({ before: id(5), limit: 3 })
    expect(ids(before)).toEqual([4, 1, 3])
    expect(cursors(before)).toEqual({ previous: 4, next: 3 })
  })

  it('limit larger than what is left', () => {
    const after = page({ after: id(1), limit: 10 })
    expect(ids(after)).toEqual([3, 5])
    expect(cursors(after)).toEqual({ previous: 3, next: null })
    const before = page({ before: id(4), limit: 10 })
    expect(ids(before)).toEqual([6, 2])
    expect(cursors(before)).toEqual({ previous: null, next: 2 })
  })

  it('an unknown cursor gives an empty page with totalCount 0', () => {
    const empty = { items: [], next: null, previous: null, totalCount: 0, totalCountCapped: false }
    expect(page({ after: id(99) })).toEqual(empty)
    expect(page({ before: id(99), includeCursor: true })).toEqual(empty)
    expect(page({ after: 'garbage' })).toEqual(empty)
  })
})

describe('pageOf: filters', () => {
  // push in createdAt ASC: 6 2 3
  it('cursors only point at matching neighbours', () => {
    const first = page({ filter: isPush, limit: 2 })
    expect(ids(first)).toEqual([6, 2])
    expect(cursors(first)).toEqual({ previous: null, next: 2 })
    expect(first.totalCount).toBe(3)
    const all = page({ filter: isPush, limit: 3 })
    expect(ids(all)).toEqual([6, 2, 3])
    expect(cursors(all)).toEqual({ previous: null, next: null }) // chat item 5 follows, no push does
  })

  it('a cursor the filter excludes still marks its position', () => {
    const after = page({ filter: isPush, after: id(4) })
    expect(ids(after)).toEqual([3])
    expect(cursors(after)).toEqual({ previous: 3, next: null })
    const before = page({ filter: isPush, before: id(1) })
    expect(ids(before)).toEqual([6, 2])
    expect(cursors(before)).toEqual({ previous: null, next: 2 })
    expect(ids(page({ filter: isPush, after: id(4), includeCursor: true }))).toEqual([3])
    expect(ids(page({ filter: isPush, descending: true, after: id(1) }))).toEqual([2, 6])
  })

  it('no match: empty page but the count still reflects the filter', () => {
    const none = page({ filter: { channel: 'sms' } })
    expect(none).toEqual({ items: [], next: null, previous: null, totalCount: 0, totalCountCapped: false })
  })
})

describe('pageOf: edges of the index', () => {
  it('empty index', () => {
    const empty = ConnectionIndex.build([])
    expect(page({}, empty)).toEqual({ items: [], next: null, previous: null, totalCount: 0, totalCountCapped: false })
    expect(page({ after: id(1) }, empty).items).toEqual([])
  })

  it('totalCount stops at the cap; capped only when more match', () => {
    const many = ConnectionIndex.build(Array.from({ length: TOTAL_COUNT_CAP + 1 }, (_, n) => conn(n + 1, n % 9, n % 9, n === 0 ? 'push' : 'chat')))
    const over = page({ limit: 1 }, many)
    expect(over.totalCount).toBe(TOTAL_COUNT_CAP)
    expect(over.totalCountCapped).toBe(true)
    const exactly = page({ limit: 1, filter: { channel: 'chat' } }, many)
    expect(exactly.totalCount).toBe(TOTAL_COUNT_CAP)
    expect(exactly.totalCountCapped).toBe(false)
    expect(TOTAL_COUNT_CAP).toBe(50_000)
  })
})
