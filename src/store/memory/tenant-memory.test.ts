import { Low } from 'lowdb'
import { describe, expect, it } from 'vitest'
import { seedState } from '../../seed/generators/seed.ts'
import { PendingTransaction } from './tenant-transaction.ts'
import { tenantDataFromState } from './tenant-data.ts'
import { TenantMemory, type StoreData } from './tenant-memory.ts'

const SPEC = { seed: 1, subscribers: 3, channelConnections: 2 }
const seed = tenantDataFromState(seedState(SPEC))
const memoryOf = () => new TenantMemory(seed, 10, async (spec) => seedState(spec))

/** What lowdb's Memory adapter holds, read back by a second Low on it: only what went through Low.update is there. */
const stored = async (memory: TenantMemory): Promise<StoreData> => {
  const reader = new Low<StoreData>(memory.db.adapter, { tenants: new Map(), snapshots: new Map(), seeds: new Map() })
  await reader.read()
  return reader.data
}

describe('TenantMemory on lowdb', () => {
  it("keeps each tenant's records in the Low's data, written through its adapter", async () => {
    const memory = memoryOf()
    memory.set('a', seed)
    const [first] = seed.subscribers.values()
    const tx = new PendingTransaction(memory.dataOf('a'))
    tx.putSubscriber({ ...first!, firstName: 'Written' })
    memory.apply('a', tx.commit()!)

    expect(memory.db.data.tenants.get('a')?.subscribers.get(first!.subscriberId)?.firstName).toBe('Written')
    expect((await stored(memory)).tenants.get('a')?.subscribers.get(first!.subscriberId)?.firstName).toBe('Written')
    expect(seed.subscribers.get(first!.subscriberId)?.firstName).not.toBe('Written')
  })

  it('keeps snapshots and seeds there too, and forgets a dropped tenant there', async () => {
    const memory = memoryOf()
    memory.created('own', { seed: 2, subscribers: 1, channelConnections: 0 }, seed)
    memory.keepSnapshot('own', 'before', { data: seed, createdAt: '2026-11-26T00:00:00.000Z' })
    let data = await stored(memory)
    expect([...(data.snapshots.get('own')?.keys() ?? [])]).toEqual(['before'])
    expect(data.seeds.get('own')).toBe(seed)

    memory.dropSnapshot('own', 'before')
    memory.drop('own')
    data = await stored(memory)
    expect(data.tenants.has('own')).toBe(false)
    expect(data.snapshots.has('own')).toBe(false)
  })
})
