import { once } from 'node:events'
import { describe, expect, it } from 'vitest'
import { startCli } from '../helpers/cli.ts'
import { readState } from '../helpers/read-state.ts'
import { appendToken, dbFile, type Auth } from './helpers.ts'

const WRITERS = 20
const ROUNDS = 3

interface Acknowledged {
  auth: Auth
  subscriberId: string
  token: string
  /** The call's idempotency key: a retry after the restart must be replayed. */
  key: string
}

/**
 * 20 writers, each on a tenant of its own, append device tokens (keyed) until the server is
 * killed at a random moment; after a restart on the same file every acknowledged token is there
 * and every acknowledged key replays. A call the kill left unanswered replays if its write was
 * stored and runs if not: a write and its record are stored together. Three rounds on one file.
 */
describe('--db under SIGKILL', () => {
  it(`loses no acknowledged write: ${WRITERS} concurrent writers, ${ROUNDS} rounds`, { timeout: 120_000 }, async () => {
    const db = dbFile()
    const acknowledged: Acknowledged[] = []
    const unanswered: Acknowledged[] = []
    const tenants = Array.from({ length: WRITERS }, (_, w) => ({ Authorization: `ApiKey killed-${w}` }))
    let subscriberIds: string[] = []
    for (let round = 0; round < ROUNDS; round++) {
      const served = await startCli(['--port', '0', '--log-level', 'silent', '--db', db])
      if (round > 0) await expectAllKept(served.url, acknowledged)
      if (round > 0) await expectRetriesSettled(served.url, unanswered.splice(0))
      if (round === 0) subscriberIds = (await readState(served.url, tenants[0]!)).subscribers.map((s) => s.subscriberId)
      let stopped = false
      const writer = async (w: number) => {
        for (let i = 0; !stopped; i++) {
          // Spread over the subscribers: a channel holds at most 100 tokens.
          const write = { auth: tenants[w]!, subscriberId: subscriberIds[i % subscriberIds.length]!, token: `r${round}-w${w}-${i}`, key: `r${round}-w${w}-${i}` }
          const res = await appendToken(served.url, write.auth, write.token, write.subscriberId)
            .set('idempotency-key', write.key)
            .catch(() => undefined)
          if (res === undefined) unanswered.push(write)
          if (res?.status !== 200) return
          acknowledged.push(write)
        }
      }
      const writers = Array.from({ length: WRITERS }, (_, w) => writer(w))
      await new Promise((resolve) => setTimeout(resolve, 300 + Math.floor(Math.random() * 900)))
      served.child.kill('SIGKILL')
      stopped = true
      await Promise.all(writers)
      if (served.child.exitCode === null && served.child.signalCode === null) await once(served.child, 'exit')
    }
    expect(acknowledged.length).toBeGreaterThan(WRITERS * ROUNDS)
    console.log(`SIGKILL: ${acknowledged.length} acknowledged writes over ${ROUNDS} rounds`)
    const last = await startCli(['--port', '0', '--log-level', 'silent', '--db', db])
    await expectAllKept(last.url, acknowledged)
    await expectRetriesSettled(last.url, unanswered)
    await last.stop()
  })
})

async function expectAllKept(url: string, acknowledged: readonly Acknowledged[]): Promise<void> {
  const missing: string[] = []
  const byTenant = new Map<string, Acknowledged[]>()
  for (const write of acknowledged) byTenant.set(write.auth.Authorization, [...(byTenant.get(write.auth.Authorization) ?? []), write])
  for (const writes of byTenant.values()) {
    const tokens = await storedTokens(url, writes[0]!.auth)
    for (const write of writes) if (!tokens.has(write.token)) missing.push(write.token)
  }
  expect(missing).toEqual([])
  // A sample of the keys: each answers as a replay, not as a new write.
  for (const write of acknowledged.filter((_, i) => i % 97 === 0)) {
    const replay = await appendToken(url, write.auth, write.token, write.subscriberId).set('idempotency-key', write.key)
    expect(replay.status).toBe(200)
    expect(replay.headers['idempotency-replay'], write.key).toBe('true')
  }
}

/** The tokens a tenant's subscribers hold. */
async function storedTokens(url: string, auth: Auth): Promise<Set<string>> {
  const state = await readState(url, auth)
  return new Set(state.subscribers.flatMap((s) => (s.channels ?? []).flatMap((c) => (c.credentials as { deviceTokens?: string[] }).deviceTokens ?? [])))
}

/** Each call the kill left unanswered, sent again with its key: a replay when its write was stored, a first run when not. */
async function expectRetriesSettled(url: string, unanswered: readonly Acknowledged[]): Promise<void> {
  const wrong: string[] = []
  for (const write of unanswered) {
    const stored = (await storedTokens(url, write.auth)).has(write.token)
    const retry = await appendToken(url, write.auth, write.token, write.subscriberId).set('idempotency-key', write.key)
    if (retry.status !== 200 || (retry.headers['idempotency-replay'] === 'true') !== stored) wrong.push(`${write.key}: stored ${stored}, answered ${retry.status} ${retry.headers['idempotency-replay'] ?? ''}`)
  }
  expect(wrong).toEqual([])
}
