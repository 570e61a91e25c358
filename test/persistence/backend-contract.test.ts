import fc from 'fast-check'
import { Redis } from 'ioredis'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { seedState } from '../../src/seed/generators/seed.ts'
import { createLowdbStore } from '../../src/store/lowdb-store.ts'
import type { TenantState } from '../../src/store/records.ts'
import { openRedis } from '../../src/redis/backend/redis-backend.ts'
import { openStoreFile } from '../../src/store/sqlite/store-file.ts'
import type { StoreBackend } from '../../src/store/store-backend.ts'
import type { SeedSpec, Store } from '../../src/store/store.ts'
import { redisTestsSkipped, startRedis, type RedisServer } from '../helpers/redis-server.ts'
import { dbFile } from './helpers.ts'

/**
 * The store backend's contract (src/store/store-backend.ts): whatever the changes, a store opened
 * again on the same backend holds what the store that wrote it held, records in the same order.
 * Every backend must pass this: SQLite, and Redis (where the second store is a second instance).
 */
const SEED: SeedSpec = { seed: 1, subscribers: 6, channelConnections: 5 }
const OWN_SEED: SeedSpec = { seed: 2, subscribers: 3, channelConnections: 2 }
const TENANTS = ['a', 'b', 'created'] as const
const seed = seedState(SEED)

/** A backend under test: `fresh` names an empty one, `open` makes a store on it. */
interface Backend {
  fresh(): Promise<string>
  open(where: string): Promise<Store>
}

const storeOn = async (backend: StoreBackend) =>
  createLowdbStore({ seed, maxTenants: 10, seedFor: async (spec) => seedState(spec), backend })

const sqlite: Backend = {
  fresh: async () => dbFile(),
  open: async (file) => storeOn(await (await openStoreFile(file, SEED, () => undefined)).backend(seed)),
}

let redisServer: RedisServer | undefined
const redis: Backend = {
  async fresh() {
    const client = new Redis(redisServer!.url)
    await client.flushall()
    client.disconnect()
    return redisServer!.url
  },
  open: async (url) => storeOn(await openRedis(url, SEED)),
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
  // Hard deletes (DELETE /v2/subscribers/{id}, docs/behaviour.md §11): seeded or added, and added again after.
  'add or put again a new subscriber': (n) => (store, tenant) =>
    store.transact(tenant, (tx) => tx.putSubscriber({ ...seed.subscribers[0]!, _id: `64fb${String(n).padStart(20, '0')}`, subscriberId: `new-${n % 2}` })),
  'delete a subscriber and its messages': (n) => (store, tenant) =>
    store.transact(tenant, (tx) => {
      const id = n % 3 === 0 ? `new-${n % 2}` : seed.subscribers[n % seed.subscribers.length]!.subscriberId
      const target = tx.subscriber(id)
      if (!target) return
      for (const message of [...tx.messages()]) if (message._subscriberId === target._id) tx.deleteMessage(message._id)
      tx.deleteSubscriber(id)
    }),
  // A tenant's workflows (docs/behaviour.md §11): none in any seed, so the first one adds the collection.
  'keep a workflow': (n) => (store, tenant) => store.transact(tenant, (tx) => tx.putWorkflow({ workflowId: `wf-${n % 3}`, name: `Workflow ${n}`, active: n % 2 === 0 })),
  'delete a message': (n) => (store, tenant) =>
    store.transact(tenant, (tx) => {
      const id = n % 2 === 0 ? `64f9${String(n % 2).padStart(20, '0')}` : seed.messages[n % seed.messages.length]!._id
      if (tx.message(id)) tx.deleteMessage(id)
    }),
  'add, change or remove a connection': (n) => (store, tenant) =>
    store.transact(tenant, (tx) => {
      const seeded = tx.connectionByIdentifier(seed.channelConnections[n % seed.channelConnections.length]!.identifier)
      const added = `64fb${String(n % 2).padStart(20, '0')}`
      if (n % 3 === 0) {
        if (seeded) tx.deleteConnection(seeded._id)
      } else if (n % 3 === 1) tx.putConnection(marked({ ...seed.channelConnections[0]!, _id: added, identifier: `added-${n % 2}` }, n))
      else if (tx.connectionByIdentifier(`added-${n % 2}`)) tx.deleteConnection(added)
    }),
  'add or change an integration': (n) => (store, tenant) =>
    store.transact(tenant, (tx) => tx.putIntegration({ ...seed.integrations[0]!, _id: `64fc${String(n % 2).padStart(20, '0')}`, primary: false, name: `added ${n}` })),
  'replace the state': (n) => async (store, tenant) => {
    const state: TenantState = await store.exportState(tenant)
    state.messages.splice(n % state.messages.length, 1)
    state.subscribers[n % state.subscribers.length] = marked(state.subscribers[n % state.subscribers.length]!, n)
    state.channelConnections = state.channelConnections.filter((_, i) => i !== n % 3)
    state.messages.push({ ...state.messages[0]!, _id: `64fa${String(n).padStart(20, '0')}` })
    if (n % 3 === 0) state.integrations.reverse()
    await store.importState(tenant, state)
  },
  // Changes nothing: its answer is what the tenant holds.
  'read through a transaction': (n) => (store, tenant) =>
    store.transact(tenant, (tx) => tx.message(`64f9${String(n % 2).padStart(20, '0')}`)?.content ?? null),
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

// Said once, by vitest.config.ts.
const redisSkipped = redisTestsSkipped()

describe.each([
  ['SQLite', sqlite, false, undefined],
  ['Redis', redis, redisSkipped !== undefined, {}],
  // Snapshots are copied by COPY where Redis has it (6.2), field by field where it has not.
  ['a Redis without COPY', redis, redisSkipped !== undefined, { args: ['--rename-command', 'COPY', ''] }],
] as const)('the store backend contract on %s', (_name, backend, skipped, redisOptions) => {
  beforeAll(async () => {
    if (redisOptions && !skipped) redisServer = await startRedis(redisOptions)
  })
  afterAll(async () => {
    if (redisOptions) await redisServer?.stop()
  })
  const openStore = (where: string) => backend.open(where)

  it.skipIf(skipped)('a store opened again on the backend holds what was written, in the same order', { timeout: 180_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 25 }), async (steps) => {
        const file = await backend.fresh()
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

/**
 * Two instances on one Redis, each step through either (and some steps through both at once),
 * hold after every run what one store in memory holds after the same steps: what each replays of
 * the other's changes makes the same records, in the same order, as making them itself.
 */
describe.skipIf(redisSkipped !== undefined)('two instances on one Redis', () => {
  beforeAll(async () => {
    redisServer = await startRedis()
  })
  afterAll(async () => {
    await redisServer?.stop()
  })

  // Half the runs list no change but the smallest: the instances behind read the tenant whole.
  const listedChange = fc.constantFrom(64 * 1024, 400)
  const sides = fc.array(fc.tuple(stepName, fc.nat(40), fc.constantFrom<Tenant>(...TENANTS), fc.boolean()), { minLength: 1, maxLength: 25 })

  it('hold what one store in memory holds after the same steps', { timeout: 180_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(sides, listedChange, async (steps, limit) => {
        const url = await redis.fresh()
        const open = async () => storeOn(await openRedis(url, SEED, { listedChange: limit }))
        const [first, second] = [await open(), await open()]
        const alone = await createLowdbStore({ seed, maxTenants: 10, seedFor: async (spec) => seedState(spec) })
        for (const store of [first, alone]) expect(await store.createTenant('created', OWN_SEED)).toBeDefined()
        expect(await second.createTenant('created', OWN_SEED)).toBeUndefined()
        for (const tenant of TENANTS) for (const store of [first, second, alone]) await store.open(tenant)
        for (const [name, n, tenant, onFirst] of steps) {
          const answer = await STEPS[name]!(n)(onFirst ? first : second, tenant)
          expect(answer).toEqual(await STEPS[name]!(n)(alone, tenant))
        }
        const expected = await everything(alone)
        expect(await everything(first)).toEqual(expected)
        expect(await everything(second)).toEqual(expected)
        await Promise.all([first.close(), second.close(), alone.close()])
      }),
      { numRuns: 60 },
    )
  })
})
