import { request } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startMockServer } from '../../src/library/start-mock-server.ts'
import type { MockServer } from '../../src/library/types.ts'
import { expectContract } from '../helpers/expect-contract.ts'
import { rawRequest, type RawAnswer } from '../helpers/raw-request.ts'

/** Enough rows that checking and writing them takes many turns of the event loop here. */
const ROWS = 10_000

/** A GET whose answer's first byte and end are noted in `events`, as they come. */
function watchedGet(url: string, tenant: string, events: string[], name: string): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const sent = request(url, { headers: { Authorization: `ApiKey ${tenant}` }, agent: false }, (res) => {
      const chunks: Buffer[] = []
      res.once('data', () => events.push(`${name}: first byte`))
      res.on('data', (chunk: Buffer) => chunks.push(chunk))
      res.on('end', () => {
        events.push(`${name}: end`)
        const text = Buffer.concat(chunks).toString('utf8')
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, body: JSON.parse(text) })
      })
      res.on('error', reject)
    })
    sent.on('error', reject)
    sent.end()
  })
}

/** Another tenant's reads, one after another, each noted in `events`, until `done` settles. */
async function readsUntil(mock: MockServer, done: Promise<unknown>, events: string[]): Promise<void> {
  let finished = false
  void done.finally(() => (finished = true))
  while (!finished) {
    const read = await rawRequest(`${mock.url}/v2/subscribers/demo-subscriber-1`, { headers: { Authorization: 'ApiKey bystander' } })
    expect(read.status).toBe(200)
    events.push('read')
  }
}

/** How many reads were answered before `event`. */
const readsBefore = (events: string[], event: string) => events.slice(0, events.indexOf(event)).filter((e) => e === 'read').length

describe('a large state is read out in slices (docs/behaviour.md §6)', () => {
  let mock: MockServer
  beforeAll(async () => {
    mock = await startMockServer({ logLevel: 'silent' })
    const created = await rawRequest(`${mock.url}/__admin/tenants`, {
      method: 'POST',
      headers: { Authorization: 'ApiKey creator', 'Content-Type': 'application/json' },
      body: JSON.stringify({ apiKey: 'large-tenant', subscribers: ROWS, channelConnections: ROWS, messages: ROWS }),
    })
    expect(created.status).toBe(201)
  }, 180_000)
  afterAll(() => mock.close())

  it("answers another tenant's calls while GET /__admin/state is checked and written", async () => {
    const events: string[] = []
    const reading = watchedGet(`${mock.url}/__admin/state`, 'large-tenant', events, 'state')
    await readsUntil(mock, reading, events)
    const state = await reading
    // With the answer checked and serialized in one piece, at most the read already sent when it
    // began would be answered before its first byte.
    expect(readsBefore(events, 'state: first byte')).toBeGreaterThan(3)
    expect(state.status).toBe(200)
    await expectContract('getState', state, 'admin')
    // The bytes JSON.stringify gives for it, as before.
    expect(state.text).toBe(JSON.stringify(state.body))
    const body = state.body as Record<string, unknown[]>
    expect(Object.keys(body)).toEqual(['subscribers', 'integrations', 'channelConnections', 'messages'])
    expect([body.subscribers!.length, body.channelConnections!.length, body.messages!.length]).toEqual([ROWS, ROWS, ROWS])
  }, 180_000)

  it('answers the same bytes to eight readers at once', async () => {
    const events: string[] = []
    const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => watchedGet(`${mock.url}/__admin/state`, 'large-tenant', events, `state ${i}`)))
    expect(answers.map((answer) => answer.status)).toEqual(Array(8).fill(200))
    expect(new Set(answers.map((answer) => answer.text)).size).toBe(1)
  }, 180_000)

  it('in process, tenant(apiKey).state() lets the event loop turn while it copies the state', async () => {
    let turns = 0
    let reading = true
    const turn = () => {
      turns++
      if (reading) setImmediate(turn)
    }
    setImmediate(turn)
    const state = await mock.tenant('large-tenant').state()
    const during = turns
    reading = false
    // Copied in one piece, the loop would turn only before the copy began and once after it.
    expect(during).toBeGreaterThan(10)
    expect(state.channelConnections).toHaveLength(ROWS)
  }, 180_000)
})
