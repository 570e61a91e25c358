/**
 * The memory attacks of issue 53 against one server with a small budget: large bodies answered
 * 400 (row 2, ~1 MB and ~97 KB), created tenants of large counts (row 4), large imported states,
 * snapshots of them and large fault rules (row 7), each run until it is refused or done. After
 * each step: the server's RSS and V8 heap (read by a preloaded probe, bench/lib/heap-probe.mjs),
 * and what `GET /__admin/tenants` says it holds. Both must level off below the budget plus a fixed
 * overhead, and the process must live. A script, not a test.
 *
 *   npm run bench:memory                                  # --memory-budget 256m, a 1 GiB heap
 *   npm run bench:memory -- --budget 512m --heap-mb 2048 --calls 1000 --keys 70
 */
import { readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { call, ROOT, rssMb, start, stop, type Running } from './lib/processes.ts'
import { writeResults } from './lib/results.ts'

const { values } = parseArgs({
  options: {
    budget: { type: 'string', default: '256m' },
    'heap-mb': { type: 'string', default: '1024' },
    /** PATCH calls per key of row 2 (five keys). */
    calls: { type: 'string', default: '1000' },
    /** Keys importing a 60 MB state (row 7). */
    keys: { type: 'string', default: '20' },
    /** The rows to run, in this order. */
    rows: { type: 'string', default: '4,7,2' },
    /** Further flags of the server, e.g. "--journal-size 0". */
    flags: { type: 'string', default: '' },
  },
})
const CALLS = Number(values.calls)
const KEYS = Number(values.keys)
const PROBE = join(tmpdir(), `novu-mock-heap-${process.pid}.json`)
const MB = 2 ** 20

interface Reading {
  step: string
  statuses: Record<number, number>
  rssMb: number | undefined
  heapMb: number
  usedMb: number
  budgetMb: number
  released: number
  alive: boolean
}

const readings: Reading[] = []

function heapMb(): number {
  try {
    return Math.round((JSON.parse(readFileSync(PROBE, 'utf8')) as { heapUsed: number }).heapUsed / MB)
  } catch {
    return NaN
  }
}

async function read(server: Running, step: string, statuses: number[]): Promise<void> {
  const counted: Record<number, number> = {}
  for (const status of statuses) counted[status] = (counted[status] ?? 0) + 1
  const alive = server.child.exitCode === null && server.child.signalCode === null
  const listed = alive ? await call(server.port, 'GET', '/__admin/tenants', 'bench-reader').catch(() => undefined) : undefined
  const body = listed?.status === 200 ? (JSON.parse(listed.text) as { released: number; memory: { used: number; budget: number } }) : undefined
  // The heap probe writes every 200 ms: wait for a reading after the step.
  await new Promise((resolve) => setTimeout(resolve, 400))
  const reading = {
    step,
    statuses: counted,
    rssMb: rssMb(server.child.pid),
    heapMb: heapMb(),
    usedMb: Math.round((body?.memory.used ?? NaN) / MB),
    budgetMb: Math.round((body?.memory.budget ?? NaN) / MB),
    released: body?.released ?? NaN,
    alive,
  }
  readings.push(reading)
  console.log(JSON.stringify(reading))
}

const json = (value: unknown) => JSON.stringify(value)

/** A call's status; 0 when the connection broke (a refused body may be cut short). */
const send = (server: Running, method: string, path: string, key: string, body?: string) =>
  call(server.port, method, path, key, body).then(
    ({ status }) => status,
    () => 0,
  )

/** Row 2: PATCH calls of 101 device tokens of `tokenBytes` each (a channel holds 100: each is a 400), from five keys at once. */
async function largeBodies(server: Running, label: string, tokenBytes: number): Promise<void> {
  const body = json({ providerId: 'fcm', credentials: { deviceTokens: Array.from({ length: 101 }, (_, i) => `${i}`.padEnd(tokenBytes, 't')) } })
  const statuses: number[] = []
  for (let done = 0; done < CALLS && readings.at(-1)!.alive; done += 200) {
    await Promise.all(
      Array.from({ length: 5 }, async (_, key) => {
        for (let i = done; i < Math.min(CALLS, done + 200); i++) {
          statuses.push(await send(server, 'PATCH', '/v1/subscribers/demo-subscriber-1/credentials', `${label}-${key}`, body))
        }
      }),
    )
    await read(server, `row 2 ${label}: ${Math.min(CALLS, done + 200)} calls per key`, statuses.splice(0))
  }
}

/** Row 4: created tenants of large counts (refused whole), then of counts a few of which fit (released in turn). */
async function createdTenants(server: Running): Promise<void> {
  for (const [label, count] of [['100,000 of each', 100_000], ['20,000 of each', 20_000]] as const) {
    const statuses: number[] = []
    for (let n = 1; n <= 9; n++) {
      const body = json({ apiKey: `big-${count}-${n}`, subscribers: count, channelConnections: count, messages: count })
      statuses.push(await send(server, 'POST', '/__admin/tenants', 'bench-creator', body))
    }
    await read(server, `row 4: nine creations of ${label}`, statuses)
  }
}

/** The seeded state with a `data` blob of `bytes` on its first subscriber, as one body. */
async function stateBody(server: Running, bytes: number, mark: string): Promise<string> {
  const state = JSON.parse((await call(server.port, 'GET', '/__admin/state', 'bench-reader')).text) as { subscribers: { data?: unknown }[] }
  state.subscribers[0]!.data = { blob: mark.padEnd(bytes, 'b') }
  return json(state)
}

/** Row 7: keys each importing a 60 MB state; one key saving snapshots of 30 MB states; fault rules of 2 MB and of 10 KB. */
async function adminData(server: Running): Promise<void> {
  const statuses: number[] = []
  for (let key = 1; key <= KEYS && readings.at(-1)!.alive; key++) {
    statuses.push(await send(server, 'PUT', '/__admin/state', `importer-${key}`, await stateBody(server, 60 * MB, `k${key}`)))
    if (key % 5 === 0) await read(server, `row 7: ${key} keys imported a 60 MB state`, statuses.splice(0))
  }
  for (let n = 1; n <= 15; n++) {
    statuses.push(await send(server, 'PUT', '/__admin/state', 'snapshotter', await stateBody(server, 30 * MB, `s${n}`)))
    statuses.push(await send(server, 'POST', '/__admin/snapshots', 'snapshotter', json({ name: `s${n}` })))
  }
  await read(server, 'row 7: 15 imports of a 30 MB state, each saved as a snapshot', statuses.splice(0))
  for (const [label, bytes, count] of [['2 MB', 2 * MB, 100], ['10 KB', 10_000, 120]] as const) {
    for (let n = 0; n < count; n++) {
      const rule = { match: { operationId: 'getSubscriber', bodyMatches: { blob: `${n}`.padEnd(bytes, 'r') } }, latencyMs: 1 }
      statuses.push(await send(server, 'POST', '/__admin/faults', `faults-${label}`, json(rule)))
    }
    await read(server, `row 7: ${count} fault rules of ${label}`, statuses.splice(0))
  }
}

async function main(): Promise<void> {
  process.env.NOVU_MOCK_HEAP_PROBE = PROBE
  const args = ['--memory-budget', values.budget, '--log-level', 'warn', '--response-validation', 'off', ...values.flags.split(' ').filter(Boolean)]
  const server = await start(
    {
      name: 'novu-mock',
      command: (port) => [process.execPath, `--max-old-space-size=${values['heap-mb']}`, '--import', join(ROOT, 'bench/lib/heap-probe.mjs'), join(ROOT, 'bin/novu-mock.js'), '--port', String(port), '--host', '127.0.0.1', ...args],
      ready: { path: '/__admin/health', ok: (status) => status === 200 },
    },
    { pinned: false },
  )
  await read(server, 'started', [])
  const ROWS: Record<string, () => Promise<void>> = {
    '2': async () => {
      await largeBodies(server, '1 MB', 10_000)
      await largeBodies(server, '97 KB', 950)
    },
    '4': () => createdTenants(server),
    '7': () => adminData(server),
  }
  try {
    for (const row of values.rows.split(',')) {
      if (!readings.at(-1)!.alive) break
      await ROWS[row.trim()]?.()
    }
  } finally {
    if (server.child.exitCode !== null) console.log(`the server exited (${server.child.exitCode}): ${server.stderr.join('').slice(-2000)}`)
    await stop(server)
  }
  report()
}

function report(): void {
  console.log(`\n--memory-budget ${values.budget} ${values.flags}, --max-old-space-size=${values['heap-mb']}\n`)
  console.log('| step | answers | RSS (MB) | V8 heap (MB) | held (MB, estimate) | released | alive |')
  console.log('|---|---|---|---|---|---|---|')
  for (const r of readings) {
    const answers = Object.entries(r.statuses).map(([status, n]) => `${n}× ${status}`).join(', ')
    console.log(`| ${r.step} | ${answers || '-'} | ${r.rssMb ?? '?'} | ${r.heapMb} | ${r.usedMb} | ${r.released} | ${r.alive ? 'yes' : 'NO'} |`)
  }
  const peak = (pick: (r: Reading) => number | undefined) => Math.max(...readings.map((r) => pick(r) ?? 0))
  console.log(`\npeak RSS ${peak((r) => r.rssMb)} MB, peak V8 heap ${peak((r) => r.heapMb)} MB, the process ${readings.every((r) => r.alive) ? 'lived' : 'DIED'}`)
  console.log(`results: ${writeResults({ budget: values.budget, heapMb: values['heap-mb'], calls: CALLS, keys: KEYS, readings }, '-memory')}`)
}

await main()
