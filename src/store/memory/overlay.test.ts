import { describe, expect, it } from 'vitest'
import type { TenantState } from '../records.ts'
import type { OverlayRow } from '../store-backend.ts'
import { overlaidSteps } from './overlay.ts'
import { tenantDataFromState } from './tenant-data.ts'

/** A seed of 100 messages, m0 to m99: only their ids matter to the overlay. */
const seed = tenantDataFromState({
  subscribers: [],
  integrations: [],
  channelConnections: [],
  messages: Array.from({ length: 100 }, (_, i) => ({ _id: `m${i}`, n: i })),
} as unknown as TenantState)

const message = (id: string, n: number): OverlayRow => ({ kind: 'messages', id, record: { _id: id, n } })
const added = (count: number): OverlayRow[] => Array.from({ length: count }, (_, i) => ({ ...message(`new${i}`, 1000 + i), seq: count - i }))

/** The messages `rows` make of the seed, by the steps an import runs in slices: ids in order, what each holds, and how many steps. */
const overlaidMessages = (rows: OverlayRow[]) => {
  const steps = overlaidSteps(seed, rows)
  let taken = 0
  let next = steps.next()
  for (; !next.done; next = steps.next()) taken++
  const { messages } = next.value
  return { ids: [...messages.keys()], n: (id: string) => (messages.get(id) as unknown as { n: number } | undefined)?.n, steps: taken }
}

describe('a tenant made of its seed and its rows', () => {
  it('keeps a replaced record in its place and puts added ones last, in their order, under a few rows or many', () => {
    for (const count of [3, 40]) {
      const { ids, n } = overlaidMessages([message('m5', -5), ...added(count)])
      const newIds = Array.from({ length: count }, (_, i) => `new${count - 1 - i}`)
      expect(ids).toEqual([...Array.from({ length: 100 }, (_, i) => `m${i}`), ...newIds])
      expect([n('m5'), n('m6'), n('new0')]).toEqual([-5, 6, 1000])
    }
  })

  it('drops a record whose row holds none', () => {
    const { ids, n } = overlaidMessages([{ kind: 'messages', id: 'm7', record: null }])
    expect(ids).toHaveLength(99)
    expect(n('m7')).toBeUndefined()
  })

  it('makes a tenant of many rows a step per record, the seed’s copied included, not in one step at the end', () => {
    // 40 rows over 100 records: more than a layer over them (√100), so the seed's records are copied.
    expect(overlaidMessages(added(40)).steps).toBeGreaterThanOrEqual(140)
  })
})
