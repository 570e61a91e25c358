/**
 * The mock in process (issue 44): calls per second of each of the five operations, one call at a
 * time, three ways side by side in one process and one run, in interleaved rounds (medians):
 *   core  the pipeline called directly with a request object, no Request, no Response, no msw;
 *   msw   `fetch` to https://api.novu.co answered by novu-mock/msw's handler under setupServer;
 *   http  `fetch` over a keep-alive connection to a server of the same options on 127.0.0.1.
 * Client and server share one thread in every way, so the three compare like with like.
 *
 *   npm run bench:msw                 # 3 rounds of 1 s per operation and way (+0.3 s warm-up), ~1 min
 *   BENCH_DURATION=2 BENCH_ROUNDS=5 npm run bench:msw
 */
import { setupServer } from 'msw/node'
import { createMockServer } from '../src/app/create-mock-server.ts'
import { createState } from '../src/app/create-state.ts'
import type { CallRequest } from '../src/core/call-request.ts'
import { Dispatcher } from '../src/core/dispatcher.ts'
import { operationEntries, type OperationEntry } from '../src/core/operation-table.ts'
import { schemaOf } from '../src/contract/load-contract.ts'
import { createNovuMock } from '../src/msw/index.ts'
import { HEADERS } from './lib/processes.ts'
import { OPERATIONS, type Operation } from './lib/operations.ts'
import { writeResults } from './lib/results.ts'
import { median } from './lib/percentile.ts'

const DURATION_MS = Number(process.env.BENCH_DURATION ?? 1) * 1000
const WARMUP_MS = 300
const ROUNDS = Math.max(1, Math.floor(Number(process.env.BENCH_ROUNDS ?? 3)))
const OPTIONS = { logLevel: 'silent' as const }

/** One call of `op`, numbered `n`, one way; resolves with the status. */
type Way = (op: Operation, n: number) => Promise<number>

async function coreWay(): Promise<Way> {
  const state = await createState(OPTIONS)
  const dispatcher = new Dispatcher(operationEntries(state.contracts.api, state.api.handlers, state.core, state.api.plane), schemaOf(state.contracts.api, 'ErrorDto'), state.core)
  const rawHeaders = Object.entries(HEADERS).flat()
  return async (op, n) => {
    const path = op.path(n)
    const match = dispatcher.route(op.method, path.split('?')[0]!) as { entry: OperationEntry; params: Record<string, string> }
    const body = op.body?.(n)
    const bytes = body === undefined ? undefined : Buffer.from(JSON.stringify(body))
    const request: CallRequest = {
      method: op.method,
      url: path,
      header: (name) => HEADERS[Object.keys(HEADERS).find((key) => key.toLowerCase() === name) as keyof typeof HEADERS],
      rawHeaders,
      hasBody: bytes !== undefined,
      bytes: async () => bytes!,
    }
    const outcome = await match.entry.answer(request, match.params)
    return outcome === 'drop' ? 0 : outcome.status
  }
}

const fetchWay =
  (base: string): Way =>
  async (op, n) => {
    const body = op.body?.(n)
    const response = await fetch(`${base}${op.path(n)}`, { method: op.method, headers: HEADERS, body: body === undefined ? undefined : JSON.stringify(body) })
    await response.arrayBuffer()
    return response.status
  }

/** Calls per second of `way` on `op`, one call after another, for DURATION_MS after a warm-up. */
async function rate(way: Way, op: Operation): Promise<number> {
  let n = 0
  for (const end = performance.now() + WARMUP_MS; performance.now() < end; ) await way(op, n++)
  const started = performance.now()
  let calls = 0
  while (performance.now() - started < DURATION_MS) {
    const status = await way(op, n++)
    if (status >= 300) throw new Error(`${op.name}: ${status}`)
    calls++
  }
  return (calls * 1000) / (performance.now() - started)
}


const server = await createMockServer(OPTIONS)
const novu = await createNovuMock(OPTIONS)
const msw = setupServer(...novu.handlers)
msw.listen({ onUnhandledRequest: 'bypass' })
const ways: Record<string, Way> = { core: await coreWay(), msw: fetchWay('https://api.novu.co'), http: fetchWay(server.url) }
const samples: Record<string, Record<string, number[]>> = {}
for (let round = 0; round < ROUNDS; round++) {
  for (const op of OPERATIONS) {
    for (const [name, way] of Object.entries(ways)) ((samples[op.name] ??= {})[name] ??= []).push(await rate(way, op))
  }
}
msw.close()
await Promise.all([server.close(), novu.close()])

const rows = OPERATIONS.map((op) => {
  const [core, viaMsw, http] = ['core', 'msw', 'http'].map((name) => median(samples[op.name]![name]!))
  return { operation: op.name, core: Math.round(core!), msw: Math.round(viaMsw!), http: Math.round(http!), mswUs: Math.round(1e6 / viaMsw! - 1e6 / core!) }
})
console.log(`calls/s, one at a time, median of ${ROUNDS} rounds of ${DURATION_MS / 1000} s (node ${process.version})\n`)
console.log('| operation | core | msw | http | msw’s cost a call (µs) |')
console.log('|---|---:|---:|---:|---:|')
for (const row of rows) console.log(`| ${row.operation} | ${row.core} | ${row.msw} | ${row.http} | ${row.mswUs} |`)
console.log(`\nresults: ${writeResults({ rounds: ROUNDS, durationMs: DURATION_MS, samples, rows }, '-msw')}`)
