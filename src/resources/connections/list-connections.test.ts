import { describe, expect, it } from 'vitest'
import { Serialized } from '../../answer/answer.ts'
import { seedState } from '../../seed/generators/seed.ts'
import { createLowdbStore } from '../../store/lowdb-store.ts'
import { listChannelConnections } from './list-connections.ts'
import type { OperationInput } from '../operation-context.ts'
import { tenantFor } from '../tenant.ts'

type Query = OperationInput<'listChannelConnections'>['query']

describe('listChannelConnections', () => {
  it('answers each page with the very bytes JSON.stringify gives for it, cursors and all', async () => {
    const spec = { seed: 1, subscribers: 5, channelConnections: 30 }
    const store = await createLowdbStore({ seed: seedState(spec), maxTenants: 10, seedFor: async (s) => seedState(s) })
    const list = (query: Partial<Query>) =>
      listChannelConnections({
        store,
        tenant: tenantFor('k'),
        input: { path: {}, query: { limit: 7, orderBy: 'createdAt', orderDirection: 'DESC', includeCursor: false, ...query }, body: undefined } as never,
        now: () => new Date(0),
      })
    const pages: Serialized[] = []
    let page = await list({})
    pages.push(page)
    for (let i = 0; i < 5 && (page.value as { next: string | null }).next; i++) {
      page = await list({ after: (page.value as { next: string }).next })
      pages.push(page)
    }
    pages.push(await list({ channel: 'chat', orderDirection: 'ASC', limit: 3 }), await list({ subscriberId: 'no-one' }))
    expect(pages.length).toBeGreaterThan(4)
    for (const shown of pages) {
      expect(shown).toBeInstanceOf(Serialized)
      expect(shown.text).toBe(JSON.stringify(shown.value))
    }
    // Listed again, the same page is made of the same texts.
    expect((await list({})).text).toBe(pages[0]!.text)
  })

  it('answers a page listed again with the answer made for it, until a write changes a connection on it', async () => {
    const spec = { seed: 2, subscribers: 5, channelConnections: 30 }
    const store = await createLowdbStore({ seed: seedState(spec), maxTenants: 10, seedFor: async (s) => seedState(s) })
    // Held by the store, as a call's tenant is: a tenant it does not hold reads as the seed.
    const end = await store.open('k')
    const list = () =>
      listChannelConnections({
        store,
        tenant: tenantFor('k'),
        input: { path: {}, query: { limit: 3, orderBy: 'createdAt', orderDirection: 'DESC', includeCursor: false }, body: undefined } as never,
        now: () => new Date(0),
      })
    const first = await list()
    expect(await list()).toBe(first)
    // The page's last connection changes (its place in the order does not): the page is made anew.
    const last = (first.value as { data: { identifier: string }[] }).data[2]!.identifier
    await store.transact('k', (tx) => {
      const record = tx.connectionByIdentifier(last)!
      tx.putConnection({ ...record, workspace: { id: 'changed' } })
    })
    const after = await list()
    expect(after).not.toBe(first)
    expect((after.value as { data: { identifier: string; workspace: unknown }[] }).data[2]).toMatchObject({ identifier: last, workspace: { id: 'changed' } })
    expect(after.text).toBe(JSON.stringify(after.value))
    end()
  })
})
