import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startCli, type Instance } from '../helpers/cli.ts'
import { expectContract } from '../helpers/expect-contract.ts'
import { eventually } from '../helpers/redis-cluster.ts'
import { redisTestsSkipped, startRedis, type RedisServer } from '../helpers/redis-server.ts'

/**
 * `GET /__admin/health` when the store cannot answer (docs/behaviour.md §6, §7): a documented 503
 * naming the store's state, never a 500, as a container health check expects. The cluster is one
 * redis-server in cluster mode holding every slot, so that a test can take slots away in a command.
 */
// Said once, by vitest.config.ts.
const skipped = redisTestsSkipped()
const cli = (port: string, ...args: string[]) => promisify(execFile)('/usr/bin/redis-cli', ['-p', port, ...args], { timeout: 5000 })

let node: RedisServer
let port: string
let served: Instance
beforeAll(async () => {
  if (skipped) return
  // Its own address announced: a node that has met no other names itself with an empty host.
  node = await startRedis({ args: ['--cluster-enabled', 'yes', '--cluster-announce-ip', '127.0.0.1'] })
  port = new URL(node.url).port
  await cli(port, 'cluster', 'addslotsrange', '0', '16383')
  await eventually(async () => /cluster_state:ok/.test((await cli(port, 'cluster', 'info')).stdout), 30_000, 'the cluster did not come up')
  served = await startCli(['--port', '0', '--log-level', 'silent', '--redis', node.url])
}, 60_000)
afterAll(async () => {
  await served?.stop()
  await node?.stop()
})

const health = () => request(served.url).get('/__admin/health')

/** The first health answer with `status`, asked again every 200 ms (a generous bound, never a deadline of the behaviour). */
async function healthOnceItIs(status: number): Promise<request.Response> {
  let answer: request.Response | undefined
  await eventually(async () => (answer = await health()).status === status, 30_000, `health did not answer ${status}`)
  return answer!
}

describe.skipIf(skipped)('health when the store cannot answer', () => {
  it('answers a documented 503 naming the state of a Redis Cluster whose slots are not all served, then 200 once they are', { timeout: 90_000 }, async () => {
    expect((await healthOnceItIs(200)).body).toMatchObject({ status: 'ok', store: 'redis-cluster' })
    // A master down and no replica promoted: the node answers PING, and CLUSTERDOWN for the keys of the slots no one serves.
    await cli(port, 'cluster', 'delslotsrange', '101', '16383')
    const down = await healthOnceItIs(503)
    await expectContract('getHealth', down, 'admin')
    expect(down.body).toMatchObject({ status: 'unavailable', store: 'redis-cluster', storeState: expect.stringMatching(/^cannot answer: .*CLUSTERDOWN/) })
    expect(down.headers['retry-after']).toBe('1')
    await cli(port, 'cluster', 'addslotsrange', '101', '16383')
    const back = await healthOnceItIs(200)
    await expectContract('getHealth', back, 'admin')
    expect(back.body).not.toHaveProperty('storeState')
  })

  it('answers a documented 503 naming the state of a Redis that was stopped', { timeout: 60_000 }, async () => {
    await healthOnceItIs(200)
    await node.halt()
    const down = await healthOnceItIs(503)
    await expectContract('getHealth', down, 'admin')
    expect(down.body).toMatchObject({ status: 'unavailable', storeState: 'unreachable: no answer to PING' })
  })
})
