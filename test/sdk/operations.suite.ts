import type { MessageMarkAsRequestDtoMarkAs as MarkAs } from '@novu/api/models/components/index.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AppOptions } from '../../src/app/config.ts'
import type { MockServer } from '../../src/app/create-mock-server.ts'
import { readState } from '../helpers/read-state.ts'
import { startTestServer } from '../helpers/start-test-server.ts'
import { lastSent, sdkClient } from './support.ts'
import { ADA, ADA_ID, adaMessage, GRACE, graceMessage, INTEGRATIONS } from '../helpers/well-known.ts'

const FCM_INTEGRATION = INTEGRATIONS.fcm
const SENDGRID = INTEGRATIONS.sendgrid
const MAILGUN = INTEGRATIONS.mailgun
const PLIVO = INTEGRATIONS.plivo
const TWILIO = INTEGRATIONS.twilio
const M01 = adaMessage(1) // unseen
const M06 = adaMessage(6) // seen, unread
const M09 = adaMessage(9) // read
const GRACE_M1 = graceMessage(1)

/** The flags each state leaves (docs/behaviour.md §2.5), whatever the message's state before. */
const AFTER: Record<MarkAs, { read?: boolean; seen: boolean }> = {
  read: { read: true, seen: true },
  seen: { seen: true },
  unread: { read: false, seen: true },
  unseen: { read: false, seen: false },
}
const BEFORE: Record<string, { read: boolean; seen: boolean }> = {
  [M01]: { read: false, seen: false },
  [M06]: { read: false, seen: true },
  [M09]: { read: true, seen: true },
}

export function operationsSuite(mode: string, options: AppOptions): void {
  describe(`the five operations through @novu/api (${mode})`, () => {
    let server: MockServer
    beforeAll(async () => {
      server = await startTestServer(options)
    })
    afterAll(() => server.close())

    it('answers in the configured wire format, and the SDK reads both', async () => {
      const client = sdkClient(server.url)
      const { result } = await client.novu.subscribers.retrieve(ADA)
      expect(result.subscriberId).toBe(ADA)
      const raw = JSON.parse(client.received[0]!) as Record<string, unknown>
      if (options.envelope) expect(Object.keys(raw)).toEqual(['data'])
      else expect(raw).toMatchObject({ subscriberId: ADA, _id: ADA_ID })
      await client.novu.channelConnections.list({ limit: 1 })
      expect(Object.keys(JSON.parse(client.received[1]!) as object).sort()).toEqual(
        ['data', 'next', 'previous', 'totalCount', 'totalCountCapped'], // the list page is never wrapped
      )
    })

    it('retrieve returns Ada Lovelace with her channels', async () => {
      const { result } = await sdkClient(server.url).novu.subscribers.retrieve(ADA)
      expect(result).toMatchObject({
        id: ADA_ID, // the SDK maps `_id` to `id`, `_environmentId` to `environmentId`, `__v` to `v`
        subscriberId: ADA,
        firstName: 'Ada',
        lastName: 'Lovelace',
        email: 'ada@example.com',
        deleted: false,
      })
      expect(result.environmentId).toMatch(/^[0-9a-f]{24}$/)
      expect(result.organizationId).toMatch(/^[0-9a-f]{24}$/)
      expect(result.channels?.map((c) => c.providerId).sort()).toEqual(['fcm', 'slack'])
      const fcm = result.channels?.find((c) => c.providerId === 'fcm')
      expect(fcm).toMatchObject({ integrationId: FCM_INTEGRATION, credentials: { deviceTokens: ['fcm-token-ada-1'] } })
      const grace = await sdkClient(server.url).novu.subscribers.retrieve(GRACE)
      expect(grace.result).toMatchObject({ firstName: 'Grace', lastName: 'Hopper', channels: [] })
    })

    it('credentials.append adds device tokens, deduplicated, and returns the subscriber', async () => {
      const client = sdkClient(server.url)
      const body = { providerId: 'fcm' as const, credentials: { deviceTokens: ['tok-1', 'fcm-token-ada-1', 'tok-1'] } }
      const { result } = await client.novu.subscribers.credentials.append(body, ADA)
      expect(result.subscriberId).toBe(ADA)
      const fcm = result.channels?.find((c) => c.providerId === 'fcm')
      expect(fcm?.credentials.deviceTokens).toEqual(['fcm-token-ada-1', 'tok-1'])
      expect(fcm?.integrationId).toBe(FCM_INTEGRATION)
      const again = await client.novu.subscribers.credentials.append(
        { providerId: 'fcm', credentials: { deviceTokens: ['tok-2'] } },
        ADA,
      )
      const tokens = again.result.channels?.find((c) => c.providerId === 'fcm')?.credentials.deviceTokens
      expect(tokens).toEqual(['fcm-token-ada-1', 'tok-1', 'tok-2'])
      expect((await client.novu.subscribers.retrieve(ADA)).result.channels).toEqual(again.result.channels)
    })

    it('credentials.append creates a channel entry for a subscriber without one', async () => {
      const client = sdkClient(server.url)
      const { result } = await client.novu.subscribers.credentials.append(
        { providerId: 'slack', credentials: { webhookUrl: 'https://hooks.example.com/grace' } },
        GRACE,
      )
      expect(result.channels).toEqual([
        {
          providerId: 'slack',
          integrationId: INTEGRATIONS.slack,
          credentials: { webhookUrl: 'https://hooks.example.com/grace' },
        },
      ])
    })

    it('integrations.setAsPrimary returns the integration as primary and demotes the old one', async () => {
      const client = sdkClient(server.url)
      const { result } = await client.novu.integrations.setAsPrimary(MAILGUN)
      expect(result).toMatchObject({
        id: MAILGUN,
        providerId: 'mailgun',
        identifier: 'mailgun',
        channel: 'email',
        primary: true,
        active: true,
        credentials: {},
        conditions: [],
      })
      const sms = await client.novu.integrations.setAsPrimary(PLIVO)
      expect(sms.result).toMatchObject({ id: PLIVO, channel: 'sms', primary: true })
      const state = await readState(server.url, client.auth)
      const primary = (id: string) => state.integrations.find((i) => i._id === id)?.primary
      expect([primary(SENDGRID), primary(MAILGUN), primary(TWILIO), primary(PLIVO)]).toEqual([false, true, false, true])
      const same = await client.novu.integrations.setAsPrimary(MAILGUN) // already primary: unchanged
      expect(same.result).toEqual(result)
    })

    describe.each(Object.keys(AFTER) as MarkAs[])('subscribers.messages.markAllAs %s', (markAs) => {
      it('with one id as a string', async () => {
        const client = sdkClient(server.url)
        const { result } = await client.novu.subscribers.messages.markAllAs({ messageId: M01, markAs }, ADA)
        expect(result.map((m) => m.id)).toEqual([M01])
        expect(result[0]).toMatchObject({ ...BEFORE[M01], ...AFTER[markAs], subscriberId: ADA_ID, channel: 'in_app' })
      })

      it('with an array of ids (another subscriber’s message is left out)', async () => {
        const client = sdkClient(server.url)
        const messageId = [M09, M01, GRACE_M1, M06]
        const start = new Date().toISOString()
        const { result } = await client.novu.subscribers.messages.markAllAs({ messageId, markAs }, ADA)
        expect(result.map((m) => m.id)).toEqual([M09, M01, M06])
        for (const message of result) {
          expect(message, message.id).toMatchObject({ ...BEFORE[message.id!], ...AFTER[markAs] })
          // every state stamps lastSeenDate; read and unread stamp lastReadDate too (§2.5)
          expect(message.lastSeenDate! >= start, `lastSeenDate ${message.lastSeenDate}`).toBe(true)
          if (markAs === 'read' || markAs === 'unread') expect(message.lastReadDate! >= start).toBe(true)
        }
        const stored = (await readState(server.url, client.auth)).messages.find((m) => m._id === GRACE_M1)
        expect(stored).toMatchObject({ read: false, seen: false })
      })
    })

    describe('idempotency keys sent by the SDK', () => {
      it('sends a fresh key on every call; writes echo it and do not replay', async () => {
        const client = sdkClient(server.url)
        const body = { messageId: [M01], markAs: 'seen' as const }
        const first = await client.novu.subscribers.messages.markAllAs(body, ADA)
        const second = await client.novu.subscribers.messages.markAllAs(body, ADA)
        await client.novu.integrations.setAsPrimary(MAILGUN)
        await client.novu.subscribers.retrieve(ADA)
        const keys = client.sent.map((s) => s.idempotencyKey)
        expect(keys.every((k) => typeof k === 'string' && k.length > 0)).toBe(true)
        expect(new Set(keys).size).toBe(keys.length)
        expect(first.headers['idempotency-key']).toEqual([keys[0]])
        expect(second.headers['idempotency-key']).toEqual([keys[1]])
        expect(second.headers['idempotency-replay']).toBeUndefined()
      })

      it('replays an answer for a key given again, without a second change', async () => {
        const client = sdkClient(server.url)
        const body = { providerId: 'fcm' as const, credentials: { deviceTokens: ['once'] } }
        const first = await client.novu.subscribers.credentials.append(body, ADA, 'sdk-fixed-key')
        const replay = await client.novu.subscribers.credentials.append(body, ADA, 'sdk-fixed-key')
        expect(lastSent(client).idempotencyKey).toBe('sdk-fixed-key')
        expect(replay.headers['idempotency-replay']).toEqual(['true'])
        expect(replay.result).toEqual(first.result)
        const state = await readState(server.url, client.auth)
        const ada = state.subscribers.find((s) => s.subscriberId === ADA)
        expect(ada?.channels?.find((c) => c.providerId === 'fcm')?.credentials.deviceTokens).toEqual(['fcm-token-ada-1', 'once'])
      })
    })
  })
}
