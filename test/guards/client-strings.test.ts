import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { rawRequest } from '../helpers/raw-request.ts'
import { hasScript, startCli } from '../helpers/cli.ts'

/** The server's heap, small enough that keeping what clients sent would end it. */
const HEAP_MB = 96
const SENT_MB = 4
const TIMES = 40

describe.runIf(hasScript)('memory per client string (docs/behaviour.md §1.2)', () => {
  let mock: Awaited<ReturnType<typeof startCli>>
  beforeAll(async () => {
    mock = await startCli(['--port', '0', '--log-level', 'silent'], { env: { NODE_OPTIONS: `--max-old-space-size=${HEAP_MB}` } })
  })
  afterAll(() => mock.stop())

  it(`keeps none of ${TIMES} timestamps of ${SENT_MB} MB: each is a 422, and the server lives on`, async () => {
    const auth = { Authorization: 'ApiKey long-strings', 'Content-Type': 'application/json' }
    const state = (await rawRequest(`${mock.url}/__admin/state`, { headers: auth })).body as { subscribers: { createdAt: string }[] }
    for (let i = 0; i < TIMES; i++) {
      // Each one different, so that no cache could share them.
      state.subscribers[0]!.createdAt = `2024-01-01T00:00:00.000Z${String(i).padStart(4, '0')}${'9'.repeat(SENT_MB * 2 ** 20)}`
      const answer = await rawRequest(`${mock.url}/__admin/state`, { method: 'PUT', headers: auth, body: JSON.stringify(state) })
      expect(answer.status).toBe(422)
    }
    expect((await rawRequest(`${mock.url}/__admin/health`)).status).toBe(200)
    expect(mock.child.exitCode).toBeNull()
  }, 120_000)
})
