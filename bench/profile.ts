/**
 * Where the server's CPU goes, per operation: novu-mock as built, started under `node --cpu-prof`
 * (default flags: log level info, its log to a file; BENCH_PROFILE_LOG=silent leaves the log out), loaded by autocannon at
 * 50 connections on one operation for BENCH_PROFILE_SECONDS (5), then stopped; the profile it
 * writes on exit is summarised as its ten largest self-time costs, each with its share of the
 * busy (non-idle) time. One server per operation, pinned as the other benches pin it.
 *
 *   npm run bench:profile
 *   npm run bench:profile -- getSubscriber markMessagesAs   # only these operations
 *   BENCH_PROFILE_DIR=/tmp/prof npm run bench:profile       # keep the .cpuprofile files there
 *
 * The .cpuprofile files open in Chrome's DevTools (Performance, "Load profile") as flame charts.
 */
import autocannon from 'autocannon'
import { mkdirSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { HEADERS, ROOT, start, stop, type ServerDef } from './lib/processes.ts'
import { OPERATIONS, requestOf } from './lib/operations.ts'
import { startRedis } from '../test/helpers/redis-server.ts'

const SECONDS = Number(process.env.BENCH_PROFILE_SECONDS ?? 5)
const TOP = 10
const DIR = process.env.BENCH_PROFILE_DIR ?? mkdtempSync(join(tmpdir(), 'novu-mock-profile-'))
const LOG_LEVEL = process.env.BENCH_PROFILE_LOG ?? 'info'
const only = process.argv.slice(2).filter((arg) => !arg.startsWith('-'))

/** The parts of V8's .cpuprofile format the summary reads. */
interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number } }[]
  samples: number[]
  timeDeltas: number[]
}

const redis = process.argv.includes('--redis') ? await startRedis() : undefined
const profiled = (dir: string): ServerDef => ({
  name: 'novu-mock (profiled)',
  command: (port) => [
    process.execPath, '--cpu-prof', `--cpu-prof-dir=${dir}`, join(ROOT, 'bin/novu-mock.js'), '--port', String(port), '--host', '127.0.0.1', '--log-level', LOG_LEVEL,
    ...(redis ? ['--redis', redis.url] : []),
  ],
  ready: { path: '/__admin/health', ok: (status) => status === 200 },
})

/** Self time by function (name, file, line), idle left out; and the busy total, in µs. */
export function selfTimes(profile: CpuProfile): { total: number; costs: [string, number][] } {
  const byNode = new Map<number, number>()
  profile.samples.forEach((id, i) => byNode.set(id, (byNode.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)))
  const frames = new Map(profile.nodes.map((node) => [node.id, node.callFrame]))
  const self = new Map<string, number>()
  let total = 0
  for (const [id, time] of byNode) {
    const frame = frames.get(id)
    if (!frame || frame.functionName === '(idle)') continue
    // The file's name only: bundle chunks and node's own modules read the same way.
    const key = `${frame.functionName || '(anonymous)'} ${frame.url.replace(/.*\/(node_modules\/)?/, '')}:${frame.lineNumber}`
    self.set(key, (self.get(key) ?? 0) + time)
    total += time
  }
  return { total, costs: [...self].sort((a, b) => b[1] - a[1]) }
}

for (const op of OPERATIONS.filter(({ name }) => only.length === 0 || only.includes(name))) {
  const dir = join(DIR, op.name)
  mkdirSync(dir, { recursive: true })
  const running = await start(profiled(dir), { logFile: join(dir, 'server.log') })
  const result = await autocannon({ url: `http://127.0.0.1:${running.port}`, connections: 50, duration: SECONDS, headers: HEADERS, requests: [requestOf(op, { n: 0 })] })
  await stop(running) // the profile is written as the process exits
  const file = readdirSync(dir).find((name) => name.endsWith('.cpuprofile'))
  if (!file) throw new Error(`no profile written in ${dir}`)
  const { total, costs } = selfTimes(JSON.parse(readFileSync(join(dir, file), 'utf8')) as CpuProfile)
  const answers = result['2xx']
  console.log(`== ${op.name}: ${Math.round(answers / result.duration)} answers/s, busy ${(total / 1e6).toFixed(2)} s, ${(total / answers).toFixed(1)} µs an answer`)
  for (const [name, time] of costs.slice(0, TOP)) console.log(`  ${((100 * time) / total).toFixed(1).padStart(5)}%  ${(time / answers).toFixed(2).padStart(6)} µs  ${name}`)
}
await redis?.stop()
console.log(`\nprofiles in ${DIR}`)
