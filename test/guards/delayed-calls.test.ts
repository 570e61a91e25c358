import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { MockServer } from '../../src/app/create-mock-server.ts'
import { MAX_DELAYED_PER_TENANT } from '../../src/policies/faults/delayed-calls.ts'
import { expectContract, expectErrorDto } from '../helpers/expect-contract.ts'
import { rawRequest, type RawAnswer } from '../helpers/raw-request.ts'
import { freshTenant, startTestServer } from '../helpers/start-test-server.ts'

const SUBSCRIBER = '/v2/subscribers/demo-subscriber-1'

describe('calls held by a delay: at most 64 per tenant (docs/behaviour.md §1.5, §6)', () => {
  let mock: MockServer
  const held: Promise<unknown>[] = []
  beforeAll(async () => {
    mock = await startTestServer()
  })
  afterAll(async () => {
    await mock.close()
    // The held calls end with the server: their connections are closed under them.
    await Promise.allSettled(held)
  })

  const call = (auth: { Authorization: string }, prefer: string) => rawRequest(`${mock.url}${SUBSCRIBER}`, { headers: { ...auth, Prefer: prefer } })

  it('refuses a tenant its 65th delayed call with a 429, while other tenants are answered', async () => {
    expect(MAX_DELAYED_PER_TENANT).toBe(64)
    const greedy = freshTenant()
    for (let i = 0; i < MAX_DELAYED_PER_TENANT; i++) held.push(call(greedy, 'delay=60000'))
    // Once all 64 wait, a short delay of the same tenant is refused at once; until then it is answered.
    let refused: RawAnswer | undefined
    const deadline = Date.now() + 30_000
    while (!refused && Date.now() < deadline) {
      const probe = await call(greedy, 'delay=1')
      if (probe.status === 429) refused = probe
      else expect(probe.status).toBe(200)
    }
    expect(refused?.status).toBe(429)
    await expectContract('getSubscriber', refused!)
    await expectErrorDto(refused!.body)
    expect((refused!.body as { message: string }).message).toBe('Too many delayed calls in flight for this tenant (64)')
    expect(refused!.headers['retry-after']).toBe(refused!.headers['ratelimit-reset'])
    expect(Number(refused!.headers['retry-after'])).toBeGreaterThan(0)
    expect(refused!.headers['preference-applied']).toBeUndefined()

    // A call of the same tenant without a delay, and other tenants' delayed calls, are answered.
    expect((await call(greedy, 'code=200')).status).toBe(200)
    const other = freshTenant()
    const theirs = await Promise.all(Array.from({ length: 8 }, () => call(other, 'delay=1')))
    expect(theirs.map((answer) => answer.status)).toEqual(Array(8).fill(200))
  }, 60_000)
})
