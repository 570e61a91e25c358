import request from 'supertest'
import { expect } from 'vitest'
import type { TenantState } from '../../src/store/records.ts'
import { expectContract } from './expect-contract.ts'

/** A tenant's stored records through GET /__admin/state, checked against the admin document. */
export async function readState(url: string, auth: { Authorization: string }): Promise<TenantState> {
  const res = await request(url).get('/__admin/state').set(auth)
  expect(res.status).toBe(200)
  await expectContract('getState', res, 'admin')
  return res.body as TenantState
}
