import { execFile, spawn, type ChildProcess } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { freePort, portOpen } from './free-port.ts'
import { REDIS_SERVER } from './redis-server.ts'

/** Debian's redis-cli, installed with redis-server. */
const REDIS_CLI = '/usr/bin/redis-cli'
const run = promisify(execFile)

/** A node as `CLUSTER NODES` lists it. */
export interface ClusterNode {
  port: number
  id: string
  role: 'master' | 'replica'
  /** A replica's master's id. */
  masterId: string | undefined
  /** Marked failed by the cluster. */
  failed: boolean
  /** A master's slot ranges, inclusive. */
  slots: [number, number][]
}

export interface RedisCluster {
  /** The URL of one node (the first master): the mock finds the cluster from it. */
  readonly url: string
  readonly ports: readonly number[]
  /** The nodes as the node at `askedAt` (any live one by default) sees them. */
  nodes(askedAt?: number): Promise<ClusterNode[]>
  /** The master holding `key`, and its replica if it has one. */
  holder(key: string): Promise<{ master: ClusterNode; replica: ClusterNode | undefined }>
  signal(port: number, signal: NodeJS.Signals): void
  /** Resolves once the replica at `replica` has everything its master at `master` had when asked. */
  replicated(master: number, replica: number): Promise<void>
  /** Resolves once every slot is served and every master has a replica attached (generous bound). */
  settled(timeoutMs?: number): Promise<void>
  stop(): Promise<void>
}

/** How quickly a silent master is failed over: short, so a test's failover takes seconds. */
const NODE_TIMEOUT_MS = 2000

/**
 * Six redis-server processes in cluster mode on free ports of 127.0.0.1 (three masters, three
 * replicas), formed with `redis-cli --cluster create`; the cluster bus on a free port of its own
 * (`--cluster-port`), so no port needs to lie below 55535. `stop` kills them all and removes their folder.
 */
export async function startRedisCluster(): Promise<RedisCluster> {
  const dir = mkdtempSync(join(tmpdir(), 'novu-mock-cluster-'))
  const children = new Map<number, ChildProcess>()
  const stop = async () => {
    await Promise.all([...children.values()].map(kill))
    rmSync(dir, { recursive: true, force: true })
  }
  try {
    const ports = await distinctPorts(12)
    for (let i = 0; i < 6; i++) {
      const [port, bus] = [ports[2 * i]!, ports[2 * i + 1]!]
      const args = ['--port', String(port), '--cluster-port', String(bus), '--bind', '127.0.0.1', '--cluster-enabled', 'yes', '--cluster-node-timeout', String(NODE_TIMEOUT_MS), '--repl-diskless-sync-delay', '0']
      const own = join(dir, String(port))
      mkdirSync(own)
      const child = spawn(REDIS_SERVER, [...args, '--cluster-config-file', join(own, 'nodes.conf'), '--save', '', '--appendonly', 'no', '--dir', own], { stdio: 'ignore' })
      children.set(port, child)
      await portOpen(port, () => child.exitCode !== null)
    }
    const nodePorts = [...children.keys()]
    await run(REDIS_CLI, ['--cluster', 'create', ...nodePorts.map((port) => `127.0.0.1:${port}`), '--cluster-replicas', '1', '--cluster-yes'])
    const cluster = clusterOf(nodePorts, children, stop)
    await cluster.settled()
    return cluster
  } catch (error) {
    await stop()
    throw error
  }
}

function clusterOf(ports: number[], children: Map<number, ChildProcess>, stop: () => Promise<void>): RedisCluster {
  const alive = (port: number) => children.get(port)?.exitCode === null && children.get(port)?.signalCode === null
  const nodes = async (askedAt = ports.find(alive)!) => parseNodes((await cli(askedAt, 'cluster', 'nodes')).stdout)
  const cluster: RedisCluster = {
    url: `redis://127.0.0.1:${ports[0]}`,
    ports,
    nodes,
    async holder(key) {
      const slot = Number((await cli(ports.find(alive)!, 'cluster', 'keyslot', key)).stdout.trim())
      const all = await nodes()
      const master = all.find((node) => node.role === 'master' && !node.failed && node.slots.some(([from, to]) => slot >= from && slot <= to))!
      return { master, replica: all.find((node) => node.masterId === master.id && !node.failed) }
    },
    signal: (port, signal) => void children.get(port)?.kill(signal),
    async replicated(master, replica) {
      const offset = async (port: number) => Number(/master_repl_offset:(\d+)/.exec((await cli(port, 'info', 'replication')).stdout)![1])
      const wanted = await offset(master)
      await eventually(async () => (await offset(replica)) >= wanted, 30_000, 'the replica did not catch up')
    },
    async settled(timeoutMs = 60_000) {
      await eventually(
        async () => {
          const ok = await Promise.all(ports.filter(alive).map(async (port) => /cluster_state:ok/.test((await cli(port, 'cluster', 'info')).stdout)))
          const all = await nodes()
          const masters = all.filter((node) => node.role === 'master' && !node.failed && node.slots.length > 0)
          const replicas = masters.map((master) => all.find((node) => node.masterId === master.id && !node.failed && alive(node.port)))
          // A replica still making its first copy could not be promoted.
          const synced = await Promise.all(replicas.map(async (replica) => replica !== undefined && /master_link_status:up/.test((await cli(replica.port, 'info', 'replication')).stdout)))
          return ok.every(Boolean) && masters.length === 3 && synced.every(Boolean)
        },
        timeoutMs,
        'the cluster did not settle',
      )
    },
    stop,
  }
  return cluster
}

/** Resolves once `check` answers true (a failure counts as false); rejects after `timeoutMs`, a generous bound. */
export async function eventually(check: () => Promise<boolean>, timeoutMs: number, failure: string): Promise<void> {
  const until = Date.now() + timeoutMs
  while (!(await check().catch(() => false))) {
    if (Date.now() > until) throw new Error(`${failure} within ${timeoutMs} ms`)
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
}

const cli = (port: number, ...args: string[]) => run(REDIS_CLI, ['-p', String(port), ...args], { timeout: 5000 })

function parseNodes(text: string): ClusterNode[] {
  return text
    .trim()
    .split('\n')
    .map((line) => {
      const [id, address, flags, master, , , , , ...slots] = line.split(' ')
      return {
        id: id!,
        port: Number(/:(\d+)@/.exec(address!)![1]),
        role: flags!.includes('master') ? 'master' : 'replica',
        masterId: master === '-' ? undefined : master,
        failed: /fail/.test(flags!) && !/fail\?/.test(flags!),
        slots: slots.filter((range) => /^\d/.test(range)).map((range) => range.split('-').map(Number) as [number, number]).map(([from, to]) => [from, to ?? from]),
      }
    })
}

async function distinctPorts(count: number): Promise<number[]> {
  const ports = new Set<number>()
  while (ports.size < count) ports.add(await freePort())
  return [...ports]
}

async function kill(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return
  const exited = new Promise((resolve) => child.once('exit', resolve))
  // A stopped (SIGSTOP) process must be resumed to die of anything but SIGKILL; SIGKILL needs no resume.
  child.kill('SIGKILL')
  await exited
}
