import Database from 'better-sqlite3'
import request from 'supertest'
import { describe, expect, it } from 'vitest'
import type { TenantState } from '../../src/store/records.ts'
import { readState } from '../helpers/read-state.ts'
import { freshTenant, startTestServer } from '../helpers/start-test-server.ts'
import { appendToken, dbFile, fcmTokens, type Auth } from './helpers.ts'

const put = (url: string, auth: Auth, state: TenantState) => request(url).put('/__admin/state').set(auth).send(state)

/** A state of another seed with `connections` connections: as many rows to store over a default tenant's seed. */
async function largeState(url: string, connections: number): Promise<TenantState> {
  const apiKey = `large-${connections}-${Math.random().toString(36).slice(2)}`
  expect((await request(url).post('/__admin/tenants').set(freshTenant()).send({ apiKey, seed: connections, channelConnections: connections })).status).toBe(201)
  return readState(url, { Authorization: `ApiKey ${apiKey}` })
}

/** What the file holds: rows per name they are kept under, and the pointers of row_owners. */
function fileRows(file: string): { byOwner: Map<string, number>; owners: number } {
  const db = new Database(file, { readonly: true })
  try {
    const byOwner = new Map(db.prepare<[], { tenant: string; n: number }>('SELECT tenant, count(*) AS n FROM records GROUP BY tenant').all().map(({ tenant, n }) => [tenant, n]))
    return { byOwner, owners: db.prepare<[], number>('SELECT count(*) FROM row_owners').pluck().get()! }
  } finally {
    db.close()
  }
}

describe('--db: a large state, written in steps', () => {
  it('is kept whole across restarts, with the writes after it; replaced again, the old rows go', { timeout: 60_000 }, async () => {
    const db = dbFile()
    const first = await startTestServer({ db })
    const tenant = freshTenant()
    const large = await largeState(first.url, 3_000)
    expect((await put(first.url, tenant, large)).status).toBe(200)
    expect((await appendToken(first.url, tenant, 'after-import')).status).toBe(200)
    expect((await request(first.url).post('/__admin/snapshots').set(tenant).send({ name: 'imported' })).status).toBe(201)
    const before = await readState(first.url, tenant)
    expect(before.channelConnections).toHaveLength(large.channelConnections.length)
    await first.close()

    const second = await startTestServer({ db })
    expect(await readState(second.url, tenant)).toEqual(before)
    const larger = await largeState(second.url, 4_000)
    expect((await put(second.url, tenant, larger)).status).toBe(200)
    const replaced = await readState(second.url, tenant)
    expect((await request(second.url).post('/__admin/snapshots/imported/restore').set(tenant)).status).toBe(200)
    expect(await readState(second.url, tenant)).toEqual(before)
    expect((await put(second.url, tenant, larger)).status).toBe(200)
    await second.close()

    const third = await startTestServer({ db })
    expect(await readState(third.url, tenant)).toEqual(replaced)
    await third.close()
    // Each tenant's rows once: no rows of a replaced state left beside the new ones.
    const { byOwner, owners } = fileRows(db)
    const movedOwners = [...byOwner.keys()].filter((owner) => owner.startsWith('\u0001'))
    expect(movedOwners.length).toBe(owners)
    expect(byOwner.get(tenant.Authorization.replace('ApiKey ', ''))).toBeUndefined()
  })

  it('reads a store file of the format before', async () => {
    const db = dbFile()
    const first = await startTestServer({ db })
    const tenant = freshTenant()
    expect((await appendToken(first.url, tenant, 'in-format-1')).status).toBe(200)
    await first.close()
    const file = new Database(db)
    file.prepare(`UPDATE meta SET value = 'novu-mock store 1' WHERE name = 'format'`).run()
    file.exec('DROP TABLE row_owners')
    file.close()
    const second = await startTestServer({ db })
    expect(await fcmTokens(second.url, tenant)).toEqual(['fcm-token-ada-1', 'in-format-1'])
    await second.close()
    const reopened = new Database(db, { readonly: true })
    expect(reopened.prepare(`SELECT value FROM meta WHERE name = 'format'`).pluck().get()).toBe('novu-mock store 2')
    reopened.close()
  })
})
