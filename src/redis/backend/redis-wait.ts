import type { ChainableCommander } from 'ioredis'
import type { RedisClient } from '../redis-connection.ts'

/**
 * How long a write waits for its replicas (WAIT): past it, the write is answered 503. Well under
 * the 5 s command timeout, and long enough for a replica on a busy machine to have it.
 */
export const WAIT_TIMEOUT_MS = 2000

/**
 * KEYS: none. Answers the node's run id and its replicas online now: one still making its first
 * copy could not confirm in time; a stopped one stays online until Redis's repl-timeout (60 s).
 */
const REPLICAS = `
local info = redis.call('INFO', 'server') .. redis.call('INFO', 'replication')
local _, online = string.gsub(info, 'state=online', '')
return {string.match(info, 'run_id:(%w+)'), online}
`

/**
 * KEYS: a key of the tenant written, so that it runs where the write ran. ARGV: that node's run id.
 * Answers 1 when this is still that node (the same process: it holds the write), after a write
 * of nothing that moves this connection's replication offset past the write, for WAIT to count from.
 */
const SAME_NODE = `
if string.match(redis.call('INFO', 'server'), 'run_id:(%w+)') ~= ARGV[1] then return 0 end
redis.call('HINCRBY', KEYS[1], 'acks', 0)
return 1
`

interface Scripts {
  novuReplicas(): ChainableCommander
  novuSameNode(key: string, runId: string): ChainableCommander
}

/** Queues a write's script on a pipeline; the script answers -1 when it wrote nothing. */
export type Write = (pipeline: ChainableCommander) => void

/**
 * Sends a write, then acknowledges it only once min(`waitReplicas`, the replicas its node has
 * now) replicas have it: the node's replicas are asked with the write, in one round trip, and
 * WAIT is sent in a second, with a check that the node is still the one that took the write (a
 * failover between the two, or a master restarted, refuses it). A write without a replica to wait
 * for (0 asked, or a master without one, as a replica just promoted) costs one round trip.
 * A write not confirmed in time fails (the store answers 503); it may still have been applied.
 */
export function confirmedWrites(client: RedisClient, waitReplicas: number) {
  client.defineCommand('novuReplicas', { numberOfKeys: 0, lua: REPLICAS })
  client.defineCommand('novuSameNode', { numberOfKeys: 1, lua: SAME_NODE })
  return async (key: string, write: Write): Promise<number> => {
    const pipeline = client.pipeline()
    write(pipeline)
    if (waitReplicas > 0) (pipeline as unknown as Scripts).novuReplicas()
    const [written, node] = answersOf(await pipeline.exec()) as [number, [string, number]?]
    const wanted = node && written !== -1 ? Math.min(waitReplicas, node[1]) : 0
    if (wanted === 0) return written
    const waiting = (client.pipeline() as unknown as Scripts).novuSameNode(key, node![0]).wait(wanted, WAIT_TIMEOUT_MS)
    const [same, acknowledged] = answersOf(await waiting.exec()) as [number, number]
    if (same === 1 && acknowledged >= wanted) return written
    const why = same === 1 ? `${acknowledged} of ${wanted} replicas confirmed it within ${WAIT_TIMEOUT_MS} ms` : 'its master changed before a replica confirmed it'
    throw new Error(`a write was not acknowledged: ${why}; it may still have been applied`)
  }
}

/** A pipeline's answers; its first error thrown. */
function answersOf(answers: [Error | null, unknown][] | null): unknown[] {
  if (answers === null) throw new Error('the pipeline was discarded')
  for (const [error] of answers) if (error) throw error
  return answers.map(([, answer]) => answer)
}
