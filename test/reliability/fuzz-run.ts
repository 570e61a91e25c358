/**
 * The full fuzz run, as a script (`npm run fuzz`): 10,000 generated bad requests per operation
 * against one server, with the status counts, any problem, and memory before and after.
 */
import { createMockServer } from '../../src/app/create-mock-server.ts'
import { loadContracts } from '../../src/app/create-state.ts'
import { prng } from '../helpers/prng.ts'
import { fuzzRequest } from './fuzz-cases.ts'
import { sendFuzz } from './send-fuzz.ts'

const SEED = Number(process.env.FUZZ_SEED ?? 20261123)
const PER_OPERATION = Number(process.env.FUZZ_PER_OPERATION ?? 10_000)

const server = await createMockServer({ logLevel: 'silent' })
const { api } = await loadContracts()
const random = prng(SEED)
global.gc?.()
const before = process.memoryUsage().heapUsed
const statuses = new Map<number | string, number>()
/** Heap after each fifth of the run: bounded buffers show as a plateau, a leak as a slope. */
const checkpoints: string[] = []
const problems: string[] = []
for (let i = 0; i < PER_OPERATION * 5; i++) {
  const fuzz = fuzzRequest(random, i)
  const problem = await sendFuzz(server.url, fuzz, api)
  if (problem) problems.push(`#${i}: ${problem}`)
  const key = problem ? 'problem' : 'ok'
  statuses.set(key, (statuses.get(key) ?? 0) + 1)
  if ((i + 1) % (PER_OPERATION * 1) === 0) {
    global.gc?.()
    checkpoints.push(`${i + 1}: ${(process.memoryUsage().heapUsed / 2 ** 20).toFixed(1)} MiB`)
  }
}
await server.close()
global.gc?.()
const after = process.memoryUsage().heapUsed
console.log(`seed ${SEED}: ${PER_OPERATION * 5} requests, ${problems.length} problems`, Object.fromEntries(statuses))
console.log(`heap before ${(before / 2 ** 20).toFixed(1)} MiB, after ${(after / 2 ** 20).toFixed(1)} MiB (run with node --expose-gc for a settled figure)`)
console.log(`heap at checkpoints: ${checkpoints.join(', ')}`)
for (const problem of problems.slice(0, 20)) console.log(problem)
process.exitCode = problems.length === 0 ? 0 : 1
