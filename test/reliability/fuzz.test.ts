import { describe, expect, it } from 'vitest'
import { loadContracts } from '../../src/app/create-state.ts'
import { startTestServer } from '../helpers/start-test-server.ts'
import { prng } from '../helpers/prng.ts'
import { fuzzRequest } from './fuzz-cases.ts'
import { sendFuzz } from './send-fuzz.ts'

const SEED = Number(process.env.FUZZ_SEED ?? 20261123)
const PER_OPERATION = Number(process.env.FUZZ_PER_OPERATION ?? 80)

/** A few hundred generated bad requests in `npm test`; `npm run fuzz` sends 10,000 per operation. */
describe(`fuzzing (seed ${SEED}, ${PER_OPERATION} per operation)`, () => {
  it('answers every bad request with a documented status and body, never a 5xx, a hang or a drop', { timeout: 120_000 }, async () => {
    const server = await startTestServer()
    const { api } = await loadContracts()
    const random = prng(SEED)
    const problems: string[] = []
    const polluted = () => ({} as Record<string, unknown>).polluted !== undefined
    for (let i = 0; i < PER_OPERATION * 5; i++) {
      const fuzz = fuzzRequest(random, i)
      const problem = await sendFuzz(server.url, fuzz, api)
      if (problem) problems.push(`#${i} (seed ${SEED}): ${problem}`)
    }
    await server.close()
    expect(polluted()).toBe(false)
    expect(problems).toEqual([])
  })
})
