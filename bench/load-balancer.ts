/**
 * Instances behind nginx (issue 36), printed as numbers, not checked: each of the five operations
 * at 50 connections for BENCH_LB_SECONDS (5) against
 *   - one instance, direct (the reference: no nginx),
 *   - one instance behind nginx,
 *   - two instances behind nginx,
 * all on one redis-server of its own, the nginx being Debian's with deploy/nginx.conf (one worker
 * per core, as the nginx image runs it). Every call is one tenant's; the three writes are then
 * measured again spread over BENCH_LB_TENANTS (50) tenants, since two instances writing one
 * tenant at once redo each other's conflicting writes (docs/decisions.md). The three setups run
 * one after the other for each load, BENCH_LB_ROUNDS (3) times in a rotating order, so that the
 * machine's drift falls on each alike: answers per second (median of the rounds), p50 and p99
 * (ms), non-2xx, and the CPU each process used during the runs (/proc/PID/stat), in % of one
 * core: the instances, nginx (master and workers), redis-server and this process, the load
 * generator; and what the rest of the machine used meanwhile (/proc/stat), other work that took
 * cores from the run. Nothing is pinned: on 2 cores, what limits the throughput is whichever of
 * them the CPU runs out on.
 *
 *   npm run bench:lb
 *   BENCH_LB_SECONDS=2 BENCH_LB_ROUNDS=1 npm run bench:lb   # quicker
 */
import { execFileSync } from 'node:child_process'
import { cpus } from 'node:os'
import { Redis } from 'ioredis'
import { startNginx, type Nginx } from '../test/helpers/nginx.ts'
import { startRedis } from '../test/helpers/redis-server.ts'
import { loadAt50, OPERATIONS, WRITE_OPERATIONS, type Operation } from './lib/operations.ts'
import { cpuMs, machineCpuMs, novuMock, PINNED, start, stop, treeCpuMs, type Running } from './lib/processes.ts'
import { writeResults } from './lib/results.ts'
import { median } from './lib/percentile.ts'

const SECONDS = Number(process.env.BENCH_LB_SECONDS ?? 5)
const ROUNDS = Number(process.env.BENCH_LB_ROUNDS ?? 3)
const TENANTS = Number(process.env.BENCH_LB_TENANTS ?? 50)
const CORES = cpus().length

// bench/lib/processes.ts pins the load generator to core 1; here every process shares every core.
if (PINNED) execFileSync('taskset', ['-a', '-p', '-c', `0-${CORES - 1}`, String(process.pid)], { stdio: 'ignore' })

interface Setup {
  name: string
  instances: Running[]
  nginx?: Nginx
  /** The port the load is sent to. */
  port: number
}

/**
 * CPU time so far (ms) of each kind of process a setup runs, of the ones every setup shares, and of
 * the whole machine: what is not ours is other work on the machine, which took cores from the run.
 */
type Cpu = Record<'instances' | 'nginx' | 'redis' | 'load' | 'other', number>
const KINDS = ['instances', 'nginx', 'redis', 'load', 'other'] as const
const cpuOf = (setup: Setup, redisPid: number): Cpu => {
  const ours = {
    instances: setup.instances.reduce((sum, instance) => sum + cpuMs(instance.child.pid), 0),
    nginx: setup.nginx ? treeCpuMs(setup.nginx.pid) : 0,
    redis: cpuMs(redisPid),
    load: cpuMs(process.pid),
  }
  return { ...ours, other: machineCpuMs() - ours.instances - ours.nginx - ours.redis - ours.load }
}

interface Reading {
  rps: number
  p50: number
  p99: number
  non2xx: number
  /** % of one core per kind of process over the run. */
  cpu: Cpu
}

/** An operation, on one tenant or spread over several. */
interface Load {
  name: string
  op: Operation
  tenants?: number
}
const LOADS: Load[] = [
  ...OPERATIONS.map((op) => ({ name: op.name, op })),
  ...WRITE_OPERATIONS.map((op) => ({ name: `${op.name}, ${TENANTS} tenants`, op, tenants: TENANTS })),
]

async function measure(setup: Setup, load: Load, redisPid: number): Promise<Reading> {
  const before = cpuOf(setup, redisPid)
  const started = performance.now()
  const result = await loadAt50(setup.port, load.op, SECONDS, load.tenants)
  const elapsed = performance.now() - started
  const after = cpuOf(setup, redisPid)
  const cpu = Object.fromEntries(KINDS.map((kind) => [kind, Math.round(((after[kind] - before[kind]) / elapsed) * 100)])) as Cpu
  return { ...result, cpu }
}


/** The reading of a setup over its rounds: medians, CPU averaged. */
function combined(readings: Reading[]): Reading {
  const mean = (kind: keyof Cpu) => Math.round(readings.reduce((sum, r) => sum + r.cpu[kind], 0) / readings.length)
  const cpu = Object.fromEntries(KINDS.map((kind) => [kind, mean(kind)])) as Cpu
  return {
    rps: median(readings.map((r) => r.rps)),
    p50: median(readings.map((r) => r.p50)),
    p99: median(readings.map((r) => r.p99)),
    non2xx: readings.reduce((sum, r) => sum + r.non2xx, 0),
    cpu,
  }
}

const redisPidOf = async (url: string) => {
  const client = new Redis(url)
  const info = await client.info('server')
  client.disconnect()
  return Number(/process_id:(\d+)/.exec(info)![1])
}

function print(results: Record<string, Record<string, Reading>>, setups: Setup[]): void {
  const pad = (value: string | number, width: number) => String(value).padStart(width)
  const width = Math.max(...LOADS.map((load) => load.name.length)) + 2
  console.log(`\nAt 50 connections, ${SECONDS} s × ${ROUNDS} rounds. CPU in % of one core (${CORES} cores: ${CORES * 100}% in all):`)
  console.log(`${''.padEnd(width + 22)}answers/s  p50  p99  non-2xx | instances  nginx  redis  load gen  ours | other work`)
  for (const load of LOADS) {
    for (const setup of setups) {
      const r = results[load.name]![setup.name]!
      const total = r.cpu.instances + r.cpu.nginx + r.cpu.redis + r.cpu.load
      const cpu = `${pad(r.cpu.instances, 9)}  ${pad(setup.nginx ? r.cpu.nginx : '-', 5)}  ${pad(r.cpu.redis, 5)}  ${pad(r.cpu.load, 8)}  ${pad(total, 4)} | ${pad(r.cpu.other, 10)}`
      console.log(`${(setup === setups[0] ? load.name : '').padEnd(width)}${setup.name.padEnd(22)}${pad(r.rps.toLocaleString('en'), 9)}  ${pad(r.p50, 3)}  ${pad(r.p99, 3)}  ${pad(r.non2xx, 7)} | ${cpu}`)
    }
  }
  const [direct, one, two] = setups.map((setup) => setup.name)
  console.log('\nAnswers/s: two instances behind nginx against one, and one behind nginx against one direct:')
  for (const load of LOADS) {
    const of = (name: string) => results[load.name]![name]!.rps
    console.log(`  ${load.name.padEnd(width)} ${(of(two!) / of(one!)).toFixed(2)}×   ${(of(one!) / of(direct!)).toFixed(2)}×`)
  }
}

const redis = await startRedis()
const running: Running[] = []
const proxies: Nginx[] = []
try {
  const instance = async (name: string) => {
    const started = await start(novuMock(name, ['--redis', redis.url]), { pinned: false })
    running.push(started)
    return started
  }
  const nginx = async (instances: Running[]) => {
    const started = await startNginx(instances.map((one) => `127.0.0.1:${one.port}`), { workers: 'auto' })
    proxies.push(started)
    return started
  }
  // The first instance records the seed options; the others then start on them.
  const alone = await instance('alone')
  const pair = [await instance('first of two'), await instance('second of two')]
  const [proxyOfOne, proxyOfTwo] = [await nginx([alone]), await nginx(pair)]
  const setups: Setup[] = [
    { name: 'one, direct', instances: [alone], port: alone.port },
    { name: 'one behind nginx', instances: [alone], nginx: proxyOfOne, port: Number(new URL(proxyOfOne.url).port) },
    { name: 'two behind nginx', instances: pair, nginx: proxyOfTwo, port: Number(new URL(proxyOfTwo.url).port) },
  ]
  const redisPid = await redisPidOf(redis.url)
  const readings: Record<string, Record<string, Reading[]>> = {}
  for (let round = 0; round < ROUNDS; round++) {
    for (const load of LOADS) {
      const turn = [...setups.slice(round % setups.length), ...setups.slice(0, round % setups.length)]
      for (const setup of turn) ((readings[load.name] ??= {})[setup.name] ??= []).push(await measure(setup, load, redisPid))
    }
  }
  const results = Object.fromEntries(Object.entries(readings).map(([load, bySetup]) => [load, Object.fromEntries(Object.entries(bySetup).map(([name, rs]) => [name, combined(rs)]))]))
  print(results, setups)
  console.log(`\nwritten to ${writeResults({ seconds: SECONDS, rounds: ROUNDS, tenants: TENANTS, cores: CORES, results, readings }, '-lb')}`)
} finally {
  await Promise.all(proxies.map((proxy) => proxy.stop()))
  await Promise.all(running.map(stop))
  await redis.stop()
}
