import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { seedState } from '../../src/seed/generators/seed.ts'
import { createLowdbStore } from '../../src/store/lowdb-store.ts'
import type { TenantState } from '../../src/store/records.ts'
import { openStoreFile } from '../../src/store/store-file.ts'
import type { SeedSpec, Store } from '../../src/store/store.ts'
import { dbFile } from './helpers.ts'

/**
 * The store backend's contract (src/store/store-backend.ts): whatever the changes, a store opened
 * again on the file holds what the store that wrote it held, records in the same order. Any
 * backend (SQLite here, Redis next) must pass this.
 */
const SEED: SeedSpec = { seed: 1, subscribers: 6, channelConnections: 5 }
const OWN_SEED: SeedSpec = { seed: 2, subscribers: 3, channelConnections: 2 }
const TENANTS = ['a', 'b', 'created'] as const
const seed = seedState(SEED)

async function openStore(file: string): Promise<Store> {
  const opened = await openStoreFile(file, SEED, () => undefined)
  return createLowdbStore({ seed, maxTenants: 10, seedFor: async (spec) => seedState(spec), backend: await opened.backend(seed) })
}

type Step = (store: Store, tenant: string) => Promise<unknown>
type Tenant = (typeof TENANTS)[number]

const marked = <T extends object>(record: T, mark: number): T => ({ ...record, updatedAt: new Date(Date.UTC(2030, 0, 1, 0, 0, mark)).toISOString() })

/** What one step may do to a tenant, with `n` choosing the record or the name. */
const STEPS: Record<string, (n: number) => Step> = {
  'edit a subscriber': (n) => (store, tenant) =>
    store.transact(tenant, (tx) => {
      const target = tx.subscriber(seed.subscribers[n % seed.subscribers.length]!.subscriberId)
      if (target) tx.putSubscriber(marked(target, n))
    }),
  'edit a seeded message': (n) => (store, tenant) =>
    store.transact(tenant, (tx) => {
      const existing = tx.message(seed.messages[n % seed.messages.length]!._id)
      if (existing) tx.putMessage(marked(existing, n))
    }),
  // Two ids, so that a message added is often put again (in place), before or after the other.
  'add or put again a new message': (n) => (store, tenant) =>
    store.transact(tenant, (tx) => tx.putMessage({ ...seed.messages[0]!, _id: `64f9${String(n % 2).padStart(20, '0')}`, content: `added ${n}` })),
  'replace the state': (n) => async (store, tenant) => {
    const state: TenantState = await store.exportState(tenant)
    state.messages.splice(n % state.messages.length, 1)
    state.subscribers[n % state.subscribers.length] = marked(state.subscribers[n % state.subscribers.length]!, n)
    state.channelConnections = state.channelConnections.filter((_, i) => i !== n % 3)
    state.messages.push({ ...state.messages[0]!, _id: `64fa${String(n).padStart(20, '0')}` })
    if (n % 3 === 0) state.integrations.reverse()
    await store.importState(tenant, state)
  },
  reset: () => (store, tenant) => store.reset(tenant),
  'save a snapshot': (n) => (store, tenant) => store.saveSnapshot(tenant, `s${n % 3}`, new Date(Date.UTC(2030, 1, 1, 0, n))),
  'restore a snapshot': (n) => (store, tenant) => store.restoreSnapshot(tenant, `s${n % 3}`),
  'delete a snapshot': (n) => (store, tenant) => store.deleteSnapshot(tenant, `s${n % 3}`),
}

/** Additions weigh more: the order of what was added over the seed is the hardest part to keep. */
const stepName = fc.oneof(fc.constantFrom(...Object.keys(STEPS)), fc.constant('add or put again a new message'))
const step = fc.tuple(stepName, fc.nat(40), fc.constantFrom<Tenant>(...TENANTS))

/** Every tenant's records and snapshots, each snapshot's records too (restored, then the tenant put back). */
async function everything(store: Store) {
  const seen: Record<string, unknown> = {}
  for (const tenant of TENANTS) {
    await store.open(tenant)
    const snapshots = await store.listSnapshots(tenant)
    seen[tenant] = { state: await store.exportState(tenant), snapshots }
  }
  return seen
}

describe('the store backend contract', () => {
  it('a store opened again on the file holds what was written, in the same order', { timeout: 120_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 25 }), async (steps) => {
        const file = dbFile()
        const first = await openStore(file)
        expect(await first.createTenant('created', OWN_SEED)).toBeDefined()
        for (const tenant of TENANTS) await first.open(tenant)
        for (const [name, n, tenant] of steps) await STEPS[name]!(n)(first, tenant)
        const written = await everything(first)
        await first.close()
        const second = await openStore(file)
        expect(await everything(second)).toEqual(written)
        // Each snapshot makes the same records in both.
        for (const tenant of TENANTS) {
          for (const { name } of await second.listSnapshots(tenant)) {
            await second.restoreSnapshot(tenant, name)
            const restored = await second.exportState(tenant)
            await second.close()
            const third = await openStore(file)
            await third.open(tenant)
            expect(await third.exportState(tenant)).toEqual(restored)
            await third.close()
            return
          }
        }
        await second.close()
      }),
      { numRuns: 100 },
    )
  })
})
