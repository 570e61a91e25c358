/**
 * The --db store at size (issue 34), printed as numbers:
 * - writes: 20 tenants of BENCH_STORE_CONNECTIONS (200,000) channel connections each, writing in
 *   turn (one write at a time, each tenant after the other) through HTTP, with --db: the median
 *   and slowest write, and how many were refused;
 * - start-up: process start to the first answered request, with that file (20 tenants written)
 *   and without --db, side by side, then the same at default volumes;
 * - a state replaced with no connection left as seeded (PUT /__admin/state), the worst case of
 *   what differs from the seed: its time, the file's growth, the start-up with it and its first read.
 *
 *   npm run bench:store                                   # ~2 min
 *   BENCH_STORE_CONNECTIONS=20000 npm run bench:store     # quicker
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { writeTenantsInTurn } from './lib/operations.ts'
import { call, start, stop, type ServerDef } from './lib/processes.ts'
import { median } from './lib/percentile.ts'

const CONNECTIONS = Number(process.env.BENCH_STORE_CONNECTIONS ?? 200_000)
const TENANTS = 20
const WRITES_PER_TENANT = Number(process.env.BENCH_STORE_WRITES ?? 50)
const STARTS = 5
const TARGETS = { medianWriteMs: 20, slowestWriteMs: 500, largeStartMs: 10_000, defaultStartMs: 500 }

const novu = (name: string, args: string[]): ServerDef => ({
  name,
  command: (port) => [process.execPath, 'bin/novu-mock.js', '--port', String(port), '--log-level', 'warn', ...args],
  ready: { path: '/__admin/health', ok: (status) => status === 200 },
})

const headers = (tenant: number) => ({ Authorization: `ApiKey store-bench-${tenant}`, 'Content-Type': 'application/json' })

/** 20 tenants writing in turn; the file they leave behind. */
async function writes(file: string, volumeArgs: string[]): Promise<{ ms: number[]; refused: number }> {
  const running = await start(novu('novu-mock --db', ['--db', file, ...volumeArgs]), { pinned: false })
  const written = await writeTenantsInTurn(running.port, TENANTS, WRITES_PER_TENANT, headers)
  await stop(running)
  return written
}

/** A tenant none of whose connections is the seed's, put through PUT /__admin/state. */
async function replaceEveryConnection(file: string, volumeArgs: string[]): Promise<void> {
  const running = await start(novu('novu-mock --db', ['--db', file, ...volumeArgs]), { pinned: false })
  const tenant = 'store-bench-replaced'
  const state = JSON.parse((await call(running.port, 'GET', '/__admin/state', tenant)).text) as { channelConnections: { identifier: string }[] }
  // A body holds at most 64 MiB: four in five connections kept, each changed, the fifth removed.
  const seeded = state.channelConnections.length
  state.channelConnections = state.channelConnections.filter((_, i) => i % 5 !== 4)
  for (const connection of state.channelConnections) connection.identifier = `${connection.identifier}-replaced`
  const body = JSON.stringify(state)
  const sizeBefore = statSync(file).size
  const started = performance.now()
  const answer = await call(running.port, 'PUT', '/__admin/state', tenant, body)
  const ms = performance.now() - started
  await stop(running)
  console.log(
    `  PUT /__admin/state with ${state.channelConnections.length} of ${seeded} connections kept, each changed (${(body.length / 2 ** 20).toFixed(0)} MiB): ${answer.status} in ${ms.toFixed(0)} ms; the file grew by ${((statSync(file).size - sizeBefore) / 2 ** 20).toFixed(0)} MiB`,
  )
}

/** Start-ups with and without the file, alternating: ms to the first answer of each. */
async function startups(file: string, volumeArgs: string[], firstReadOf = 'store-bench-0'): Promise<{ db: number[]; memory: number[] }> {
  const result = { db: [] as number[], memory: [] as number[] }
  for (let i = 0; i < STARTS; i++) {
    for (const [kind, args] of [['db', ['--db', file, ...volumeArgs]], ['memory', volumeArgs]] as const) {
      const running = await start(novu(`novu-mock ${kind}`, [...args]), { pinned: false })
      result[kind].push(running.startupMs)
      // The tenants' records are made again on their first use: that first read counts too.
      const first = performance.now()
      await call(running.port, 'GET', '/v2/subscribers/demo-subscriber-1', firstReadOf)
      if (kind === 'db' && i === 0) console.log(`  first read of ${firstReadOf} after the start: ${(performance.now() - first).toFixed(1)} ms`)
      await stop(running)
    }
  }
  return result
}

/** BENCH_STORE_KEEP=1 leaves the files, to time their start-ups with other tools. */
const dir = mkdtempSync(join(tmpdir(), 'novu-mock-store-bench-'))
const rows: [string, string, boolean][] = []
for (const [label, volumeArgs] of [[`${CONNECTIONS} connections`, ['--connections', String(CONNECTIONS)]], ['default volumes', []]] as const) {
  const file = join(dir, `${label.replace(/\W+/g, '-')}.db`)
  console.log(`\n${label}: ${TENANTS} tenants × ${WRITES_PER_TENANT} writes in turn, with --db`)
  const { ms, refused } = await writes(file, [...volumeArgs])
  const [mid, slowest] = [median(ms), Math.max(...ms)]
  console.log(`  writes: ${ms.length}, median ${mid.toFixed(2)} ms, slowest ${slowest.toFixed(1)} ms, refused ${refused}; file ${(statSync(file).size / 1024).toFixed(0)} KiB`)
  console.log(`  start-up with the file and without --db, ${STARTS} each, alternating:`)
  const starts = await startups(file, [...volumeArgs])
  console.log(`  ms to the first answer: --db ${starts.db.map((v) => v.toFixed(0)).join(', ')} (median ${median(starts.db).toFixed(0)}); in memory ${starts.memory.map((v) => v.toFixed(0)).join(', ')} (median ${median(starts.memory).toFixed(0)})`)
  if (label === 'default volumes') {
    rows.push([`start-up at default volumes with --db < ${TARGETS.defaultStartMs} ms (median)`, median(starts.db).toFixed(0), median(starts.db) < TARGETS.defaultStartMs])
  } else {
    rows.push(
      [`median write < ${TARGETS.medianWriteMs} ms`, mid.toFixed(2), mid < TARGETS.medianWriteMs],
      [`slowest write < ${TARGETS.slowestWriteMs} ms`, slowest.toFixed(1), slowest < TARGETS.slowestWriteMs],
      ['writes refused = 0', String(refused), refused === 0],
      [`start-up with ${TENANTS} tenants × ${CONNECTIONS} connections < ${TARGETS.largeStartMs} ms (median)`, median(starts.db).toFixed(0), median(starts.db) < TARGETS.largeStartMs],
    )
    console.log(`\n${label}: one more tenant, its state replaced with no connection as seeded`)
    await replaceEveryConnection(file, [...volumeArgs])
    const replaced = await startups(file, [...volumeArgs], 'store-bench-replaced')
    console.log(`  ms to the first answer: --db ${replaced.db.map((v) => v.toFixed(0)).join(', ')} (median ${median(replaced.db).toFixed(0)}); in memory median ${median(replaced.memory).toFixed(0)}`)
  }
}
if (process.env.BENCH_STORE_KEEP) console.log(`\nfiles kept in ${dir}`)
else rmSync(dir, { recursive: true, force: true })
console.log('\ntarget | measured | met')
for (const [target, value, met] of rows) console.log(`${target} | ${value} | ${met ? 'yes' : 'NO'}`)
