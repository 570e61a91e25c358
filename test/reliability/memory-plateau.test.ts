import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { describe, expect, it } from 'vitest'
import { createMockServer } from '../../src/app/create-mock-server.ts'
import { loadContracts } from '../../src/app/create-state.ts'
import { prng } from '../helpers/prng.ts'
import { fuzzRequest } from './fuzz-cases.ts'
import { sendFuzz } from './send-fuzz.ts'

const SEED = 20261124
const ROUND = 250
// Small bounds, so that a few hundred requests fill every buffer that grows with traffic.
const BOUNDS = { journalSize: 50, maxTenants: 20 }

setFlagsFromString('--expose-gc')
const gc = runInNewContext('gc') as () => void

const heapMiB = () => {
  gc()
  gc()
  return process.memoryUsage().heapUsed / 2 ** 20
}

/**
 * Bounded buffers show as a plateau, a leak as a slope: once the journal, the idempotency records
 * and the tenants are full, more fuzzing must not grow the heap.
 */
describe(`memory under fuzzing (seed ${SEED})`, () => {
  it('returns to the same heap after each further round of bad requests', { timeout: 120_000 }, async () => {
    const server = await createMockServer({ logLevel: 'silent', ...BOUNDS })
    const { api } = await loadContracts()
    const random = prng(SEED)
    const round = async (from: number) => {
      for (let i = from; i < from + ROUND; i++) await sendFuzz(server.url, fuzzRequest(random, i), api)
      return heapMiB()
    }
    await round(0)
    const full = await round(ROUND)
    const later = [await round(2 * ROUND), await round(3 * ROUND)]
    await server.close()
    for (const heap of later) expect(heap, `heap ${later.map((h) => h.toFixed(1)).join(', ')} MiB after ${full.toFixed(1)} MiB`).toBeLessThan(full + 2)
  })
})
