import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startCli, type Instance } from '../helpers/cli.ts'
import { expectContract } from '../helpers/expect-contract.ts'
import { rawRequest } from '../helpers/raw-request.ts'

/** A heap this small held ~1,800 of these calls while the journal kept each whole body behind its cut. */
const HEAP_MB = 256
const CALLS = 4000
const KEYS = 5
const IN_FLIGHT = 4

/** 101 device tokens of ~950 bytes: a ~96 KB body, under the API's body limit, refused by the document (400). */
const BODY = JSON.stringify({ providerId: 'fcm', credentials: { deviceTokens: Array.from({ length: 101 }, (_, i) => String(i).padEnd(950, 't')) } })

describe('the journal keeps what it counts (docs/behaviour.md §6)', () => {
  let served: Instance
  beforeAll(async () => {
    served = await startCli(['--port', '0', '--log-level', 'silent'], { env: { NODE_OPTIONS: `--max-old-space-size=${HEAP_MB}` } })
  })
  afterAll(() => served.stop())

  it(`lives through ${CALLS} refused ~96 KB calls of ${KEYS} keys in a ${HEAP_MB} MB heap, and still answers`, async () => {
    let sent = 0
    const statuses = new Set<number>()
    const sender = async () => {
      while (sent < CALLS) {
        const key = sent++ % KEYS
        const answer = await rawRequest(`${served.url}/v1/subscribers/demo-subscriber-1/credentials`, {
          method: 'PATCH',
          headers: { Authorization: `ApiKey journal-memory-${key}`, 'Content-Type': 'application/json' },
          body: BODY,
        })
        statuses.add(answer.status)
      }
    }
    await Promise.all(Array.from({ length: IN_FLIGHT }, sender))
    expect([...statuses]).toEqual([400])
    expect(served.child.exitCode).toBeNull()

    const journal = await rawRequest(`${served.url}/__admin/requests?limit=1`, { headers: { Authorization: `ApiKey journal-memory-${(CALLS - 1) % KEYS}` } })
    expect(journal.status).toBe(200)
    await expectContract('listRequests', journal, 'admin')
    const [last] = (journal.body as { requests: { requestBody: unknown; truncated?: boolean; status: number }[] }).requests
    expect(last).toMatchObject({ status: 400, truncated: true })
    expect(BODY.startsWith(last!.requestBody as string)).toBe(true)
    expect((await rawRequest(`${served.url}/v2/subscribers/demo-subscriber-1`, { headers: { Authorization: 'ApiKey journal-memory-after' } })).status).toBe(200)
  }, 180_000)
})
