/**
 * A shared mock used for a long time, as many CI runs use one: mixed calls over API keys that
 * keep arriving (many more than --max-tenants), keyed writes, fault rules added and removed,
 * event streams opened and closed, resets. Per minute: the server's RSS, p50/p99 of the calls,
 * the tenants released, and every 5xx that no fault rule injected. A script, not a test.
 *
 *   npm run bench:soak                  # 10 minutes
 *   npm run bench:soak -- --minutes 3
 */
import { Agent, request } from 'node:http'
import { parseArgs } from 'node:util'
import { OPERATIONS } from './lib/operations.ts'
import { novuMock, rssMb, start, stop } from './lib/processes.ts'
import { writeResults } from './lib/results.ts'

const { values } = parseArgs({ options: { minutes: { type: 'string', default: '10' }, 'max-tenants': { type: 'string', default: '100' } } })
const MINUTES = Number(values.minutes)
const MAX_TENANTS = Number(values['max-tenants'])
if (!(MINUTES > 0) || !(MAX_TENANTS > 0)) throw new Error('--minutes and --max-tenants take positive numbers')
/** Clients calling at once, each a CI job: it uses one key for CALLS_PER_KEY calls, then a new one. */
const CLIENTS = 8
const CALLS_PER_KEY = 40
/** The header the soak's fault rules add, so their 5xx are told apart from any other. */
const INJECTED = 'x-soak-injected'

interface Minute {
  minute: number
  calls: number
  rssMb: number | undefined
  p50Ms: number
  p99Ms: number
  released: number
  injected5xx: number
  unexpected5xx: number
  keys: number
}

const agent = new Agent({ keepAlive: true, maxSockets: CLIENTS * 2 })

function call(port: number, method: string, path: string, key: string, body?: unknown, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; text: string; injected: boolean }>((resolve) => {
    const payload = body === undefined ? undefined : JSON.stringify(body)
    const req = request(
      { host: '127.0.0.1', port, method, path, agent, headers: { Authorization: `ApiKey ${key}`, 'Content-Type': 'application/json', ...headers } },
      (res) => {
        let text = ''
        res.setEncoding('utf8')
        res.on('data', (chunk: string) => (text += chunk))
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text, injected: res.headers[INJECTED] !== undefined }))
      },
    )
    req.on('error', (error) => resolve({ status: 0, text: String(error), injected: false }))
    req.end(payload)
  })
}

/** An event stream of the key's journal, held open for a while, as an inspector page would. */
function openStream(port: number, key: string, ms: number): void {
  const req = request({ host: '127.0.0.1', port, path: '/__admin/events', headers: { Authorization: `ApiKey ${key}`, Accept: 'text/event-stream' } }, (res) => {
    res.resume()
    setTimeout(() => req.destroy(), ms)
  })
  req.on('error', () => undefined)
  req.end()
}

async function main(): Promise<void> {
  const server = await start(novuMock('soak', ['--max-tenants', String(MAX_TENANTS)]), { pinned: true })
  const port = server.port
  const deadline = Date.now() + MINUTES * 60_000
  let latencies: number[] = []
  let counts = { calls: 0, injected: 0, unexpected: 0 }
  const unexpectedSamples: string[] = []
  let keys = 0

  const client = async (id: number) => {
    let n = 0
    while (Date.now() < deadline) {
      const key = `soak-${id}-${keys++}`
      for (let i = 0; i < CALLS_PER_KEY && Date.now() < deadline; i++, n++) {
        const op = OPERATIONS[n % OPERATIONS.length]!
        const keyed: Record<string, string> = op.method !== 'GET' && i % 3 === 0 ? { 'idempotency-key': `${key}-${i}` } : {}
        if (i === 5) await call(port, 'POST', '/__admin/faults', key, { match: { operationId: 'getSubscriber' }, respond: { status: 503, headers: { [INJECTED]: '1' } }, times: 2 })
        if (i === 20) {
          const rules = await call(port, 'GET', '/__admin/faults', key)
          const listed = rules.status === 200 ? ((JSON.parse(rules.text) as { faults: { id: string }[] }).faults ?? []) : []
          for (const rule of listed) await call(port, 'DELETE', `/__admin/faults/${rule.id}`, key)
        }
        if (i === 10 && id % 2 === 0) openStream(port, key, 3000)
        if (i === 30) await call(port, 'POST', '/__admin/reset', key)
        const started = performance.now()
        const answer = await call(port, op.method, op.path(n), key, op.body?.(n), keyed)
        latencies.push(performance.now() - started)
        counts.calls++
        if (answer.status >= 500 || answer.status === 0) {
          if (answer.injected) counts.injected++
          else {
            counts.unexpected++
            if (unexpectedSamples.length < 20) unexpectedSamples.push(`${op.name} ${answer.status} ${answer.text.slice(0, 200)}`)
          }
        }
      }
    }
  }

  const minutes: Minute[] = []
  let releasedBefore = 0
  let keysBefore = 0
  const reporter = setInterval(async () => {
    const sorted = latencies.sort((a, b) => a - b)
    const at = (q: number) => Math.round((sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN) * 10) / 10
    const tenants = await call(port, 'GET', '/__admin/tenants', 'soak-reporter')
    const listed = tenants.status === 200 ? (JSON.parse(tenants.text) as { released: number }) : { released: releasedBefore }
    const minute = {
      minute: minutes.length + 1,
      calls: counts.calls,
      rssMb: rssMb(server.child.pid),
      p50Ms: at(0.5),
      p99Ms: at(0.99),
      released: listed.released - releasedBefore,
      injected5xx: counts.injected,
      unexpected5xx: counts.unexpected,
      keys: keys - keysBefore,
    }
    releasedBefore = listed.released
    keysBefore = keys
    latencies = []
    counts = { calls: 0, injected: 0, unexpected: 0 }
    minutes.push(minute)
    console.log(JSON.stringify(minute))
  }, 60_000)

  await Promise.all(Array.from({ length: CLIENTS }, (_, id) => client(id)))
  // The last minute's report comes at its end.
  await new Promise((resolve) => setTimeout(resolve, 1500))
  clearInterval(reporter)
  if (server.child.exitCode !== null) console.log(`the server exited (${server.child.exitCode}): ${server.stderr.join('').slice(-2000)}`)
  await stop(server)
  agent.destroy()
  report(minutes, unexpectedSamples)
}

function report(minutes: Minute[], samples: string[]): void {
  console.log(`\n| minute | calls | new keys | RSS (MB) | p50 (ms) | p99 (ms) | released | 5xx injected | 5xx not injected |`)
  console.log(`|---|---|---|---|---|---|---|---|---|`)
  for (const m of minutes) console.log(`| ${m.minute} | ${m.calls} | ${m.keys} | ${m.rssMb ?? '?'} | ${m.p50Ms} | ${m.p99Ms} | ${m.released} | ${m.injected5xx} | ${m.unexpected5xx} |`)
  const second = minutes[1]?.rssMb
  const last = minutes.at(-1)?.rssMb
  const growth = second && last ? (last - second) / second : NaN
  const unexpected = minutes.reduce((sum, m) => sum + m.unexpected5xx, 0)
  console.log(`\nRSS, last minute against minute two: ${Number.isNaN(growth) ? 'n/a' : `${(growth * 100).toFixed(1)}%`} (${Math.abs(growth) <= 0.1 ? 'met' : 'NOT met'}: within 10%)`)
  console.log(`5xx that no fault rule injected: ${unexpected} (${unexpected === 0 ? 'met' : 'NOT met'})`)
  for (const sample of samples) console.log(`  ${sample}`)
  console.log(`results: ${writeResults({ minutes, maxTenants: MAX_TENANTS, clients: CLIENTS, callsPerKey: CALLS_PER_KEY, samples }, '-soak')}`)
}

await main()
