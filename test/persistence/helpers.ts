import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import request from 'supertest'
import { expect } from 'vitest'
import { ADA } from '../helpers/well-known.ts'

export type Auth = { Authorization: string }

/** A path for a store file in a folder of its own. */
export const dbFile = (name = 'state.db') => join(mkdtempSync(join(tmpdir(), 'novu-mock-db-')), name)

const ADA_CREDENTIALS = `/v1/subscribers/${ADA}/credentials`

export const appendToken = (url: string, auth: Auth, token: string, subscriberId = ADA) =>
  request(url).patch(`/v1/subscribers/${subscriberId}/credentials`).set(auth).send({ providerId: 'fcm', credentials: { deviceTokens: [token] } })

export async function fcmTokens(url: string, auth: Auth, subscriberId = ADA): Promise<string[]> {
  const res = await request(url).get(`/v2/subscribers/${subscriberId}`).set(auth)
  expect(res.status).toBe(200)
  const channel = (res.body.channels as { providerId: string; credentials: { deviceTokens?: string[] } }[]).find((c) => c.providerId === 'fcm')
  return channel?.credentials.deviceTokens ?? []
}

export { ADA_CREDENTIALS }
