/**
 * A key's cost at 50 connections, call by call: req/s of one server while the kind of call it
 * gets switches every 50 ms, so that every kind meets the same machine (which drifts by up to 30%
 * here between identical measurements seconds apart). Target 8 itself is read by
 * bench/key-cost-servers.ts, which charges a key what it leaves behind too. 50 raw keep-alive
 * sockets (bench/lib/raw-client.ts: prepared bytes, no HTTP client per call) each send the next
 * call as soon as an answer is in.
 * The kinds:
 * - plain: no extra header;
 * - plain again: the same, under another name: what this method reads when nothing differs;
 * - another header: `x-request-tag: <n>`, a header no one reads: what node's own parsing of one
 *   more header costs (it builds `req.headers` for every HTTP/1.1 request, to check Host and Expect);
 * - keyed: `idempotency-key: <key>`, a fresh key per call, as the official SDK sends
 *   (bench/lib/key-calls.ts: the calls are the SDK's, or with BENCH_KEY_SHAPE=minimal the bench's).
 * A window counts only the answers to its own kind's calls, after the first 5 ms; each kind's
 * req/s is pooled over its windows and divided by plain's. Each kind follows each other kind
 * equally often (see WINDOWS). What a kind leaves for the collector to do later still falls
 * partly on the windows after it: this reading charges a key only part of the memory it keeps.
 *
 *   npm run bench:key                          # set-primary, 150 s, then bench/key-cost-servers.ts
 *   BENCH_KEY_SECONDS=60 BENCH_KEY_OPERATION=markMessagesAs npm run bench:key
 */
import { CONNECTIONS, KEY_HEADER, NO_HEADER, OPERATION, SHAPE, WRITTEN, nextCall, type ExtraHeader } from './lib/key-calls.ts'
import { NOVU_MOCK, sleep, start, stop } from './lib/processes.ts'
import { RawClient } from './lib/raw-client.ts'

const SECONDS = Number(process.env.BENCH_KEY_SECONDS ?? 150)
const WINDOW_MS = 50
/** Long enough for the 50 calls in flight when the kind switches to be answered. */
const SETTLE_MS = 5

/** A kind of call and the header it adds to its call n. */
interface Kind {
  name: string
  header: ExtraHeader
}
const PLAIN: Kind = { name: 'plain', header: NO_HEADER }
const KEYED: Kind = { name: 'keyed', header: KEY_HEADER }
const KINDS: Kind[] = [
  PLAIN,
  { name: 'plain again', header: NO_HEADER },
  { name: 'another header', header: (n) => [SHAPE === 'sdk' ? 'x-request-tag' : 'X-Request-Tag', `bench-${n}`] },
  KEYED,
]

/**
 * The kinds' windows in an order in which each kind follows each other kind once, so that a cost
 * one kind leaves behind (the collector's, for one) falls on every other kind alike. A rotation of
 * one order does not do that: it keeps who follows whom.
 */
const WINDOWS = everyPairOnce(KINDS.length).map((k) => KINDS[k]!)

/** A cyclic order of 0..n-1 holding every ordered pair of different numbers once (an Euler circuit of the complete digraph). */
function everyPairOnce(n: number): number[] {
  const unused = Array.from({ length: n }, (_, from) => Array.from({ length: n }, (_, to) => to).filter((to) => to !== from))
  const path = [0]
  const circuit: number[] = []
  while (path.length > 0) {
    const to = unused[path.at(-1)!]!.pop()
    if (to === undefined) circuit.push(path.pop()!)
    else path.push(to)
  }
  // The circuit ends where it starts; as a cycle, that start is counted once.
  return circuit.reverse().slice(0, -1)
}

const running = await start(NOVU_MOCK)
const now = { kind: PLAIN, counting: false, answered: 0, running: true }

/** Calls of the current kind, one after another; an answer counts for its window if the kind has not switched since. */
async function drive(client: RawClient): Promise<void> {
  while (now.running) {
    const kind = now.kind
    await client.call(nextCall(kind.header))
    if (now.counting && kind === now.kind) now.answered++
  }
}

const clients = await Promise.all(Array.from({ length: CONNECTIONS }, () => RawClient.open(running.port)))
const driving = Promise.all(clients.map(drive))
const totals = new Map(KINDS.map((kind) => [kind, { answered: 0, ms: 0 }]))
try {
  for (let i = 0; i < 40; i++) {
    now.kind = KINDS[i % KINDS.length]!
    await sleep(WINDOW_MS)
  }
  const end = performance.now() + SECONDS * 1000
  while (performance.now() < end) {
    for (const kind of WINDOWS) {
      now.kind = kind
      now.counting = false
      await sleep(SETTLE_MS)
      now.answered = 0
      now.counting = true
      const started = performance.now()
      await sleep(WINDOW_MS)
      now.counting = false
      const total = totals.get(kind)!
      total.answered += now.answered
      total.ms += performance.now() - started
    }
  }
  now.running = false
  await driving
} finally {
  for (const client of clients) client.close()
  await stop(running)
}

const rps = (kind: Kind) => (totals.get(kind)!.answered / totals.get(kind)!.ms) * 1000
console.log(`${OPERATION.name}, ${CONNECTIONS} connections, ${SECONDS} s, the kind of call switching every ${WINDOW_MS} ms; ${WRITTEN}`)
for (const kind of KINDS) console.log(`  ${kind.name.padEnd(15)} ${rps(kind).toFixed(0).padStart(6)} req/s  ${(rps(kind) / rps(PLAIN)).toFixed(3)}x plain`)
// Not the target's reading: a key's deferred cost is spread over every kind here (bench/key-cost-servers.ts is).
console.log(`\n  keyed over plain, kinds interleaved on one server: ${(rps(KEYED) / rps(PLAIN)).toFixed(3)}`)
