import type { Contract } from '../contract/load-contract.ts'
import { checkAnswer, type Violation } from './check-answer.ts'
import { readProbes, writeProbes, type Probe, type ProbeTargets } from './probes.ts'

export interface VerifyOptions {
  /** Base URL of the server under test: the live service, a staging copy, or a mock. */
  target: string
  apiKey: string
  /** Also send the probes that write (only to the ids given). */
  write: boolean
  targets: ProbeTargets
  /** How long a probe waits for an answer. */
  timeoutMs: number
}

/** The target gave no answer to the first probe (refused, unreachable, or silent): there is nothing to report on. */
export class NoAnswerError extends Error {}

export interface ProbeResult {
  name: string
  operationId: string
  method: string
  path: string
  status: number | null
  passed: boolean
  violations: Violation[]
  /** Fields the document does not list: allowed from a real service, reported but not failed. */
  notes: string[]
  /** Why the probe was not sent (`--write` without the id it needs); it neither passes nor fails. */
  skipped?: string
  body?: unknown
  /** The statuses the contract allows for the probe. */
  expected: readonly number[]
  /** The answer said it was JSON. */
  json?: boolean
}

/**
 * The URL of a probe under the target's base path: a gateway's prefix (`https://gw/novu`) is kept,
 * where `new URL('/v2/…', target)` would drop it.
 */
export function probeUrl(target: string, path: string): URL {
  const url = new URL(target)
  const [pathname = '', query] = path.split('?')
  url.pathname = `${url.pathname.replace(/\/+$/, '')}${pathname}`
  url.search = query === undefined ? '' : `?${query}`
  url.hash = ''
  return url
}

/** Sends each probe to the target and checks status, media type and body against the document. */
export async function verifyTarget(api: Contract, options: VerifyOptions): Promise<ProbeResult[]> {
  const results: ProbeResult[] = []
  for (const probe of readProbes(options.targets)) {
    const result = await run(api, options, probe)
    if (results.length === 0 && result.status === null) throw new NoAnswerError(`${options.target}: ${result.violations[0]?.message}; nothing was checked`)
    results.push(result)
  }
  if (!results.some(answeredAsTheApi)) throw new NoAnswerError(notTheApi(options.target, results))
  if (options.write) {
    const subscriber = results[0]?.passed ? (results[0].body as { channels?: { providerId: string; integrationIdentifier?: string; credentials: unknown }[] }) : undefined
    const channel = subscriber?.channels?.[0]
    const same = channel && { providerId: channel.providerId, integrationIdentifier: channel.integrationIdentifier, credentials: channel.credentials }
    for (const probe of writeProbes(options.targets, same)) results.push(probe.skipped === undefined ? await run(api, options, probe) : skippedResult(probe, probe.skipped))
  }
  return results
}

/**
 * A JSON answer with a status the probe expects, other than a 404: what the Novu API, or a copy
 * of it, gives at least once. A 404 is left out: a server that is not the API (a wrong base path,
 * an API reference page) answers it on every path, in JSON too.
 */
const answeredAsTheApi = (result: ProbeResult) => result.json === true && result.status !== null && result.status !== 404 && result.expected.includes(result.status)

/** One line: what the target answered instead, and what to check (the base path, most often). */
function notTheApi(target: string, results: readonly ProbeResult[]): string {
  const first = results[0]!
  const statuses = [...new Set(results.map((result) => result.status))].join(', ')
  return `${target}: answered no probe as the Novu API would (status ${statuses}${results.every((result) => !result.json) ? ', never JSON' : ''}; e.g. ${first.method} ${first.path} -> ${first.status}); check --target (its base path included) and --api-key; nothing was checked`
}

function skippedResult({ name, operationId, method, path }: Probe, skipped: string): ProbeResult {
  return { name, operationId, method, path, status: null, passed: true, violations: [], notes: [], skipped, expected: [] }
}

async function run(api: Contract, options: VerifyOptions, probe: Probe): Promise<ProbeResult> {
  const url = probeUrl(options.target, probe.path)
  const path = `${url.pathname}${url.search}`
  const result: ProbeResult = { name: probe.name, operationId: probe.operationId, method: probe.method, path, status: null, passed: false, violations: [], notes: [], expected: probe.expect }
  let response: Response
  let text: string
  try {
    response = await fetch(url, {
      method: probe.method,
      headers: { Authorization: `ApiKey ${options.apiKey}`, Accept: 'application/json', ...(probe.body === undefined ? {} : { 'Content-Type': 'application/json' }) },
      body: probe.body === undefined ? undefined : JSON.stringify(probe.body),
      signal: AbortSignal.timeout(options.timeoutMs),
    })
    // Inside the timeout too: a server may send its headers and then stall the body.
    text = await response.text()
  } catch (error) {
    result.violations.push({ message: whyNoAnswer(error, options.timeoutMs) })
    return result
  }
  result.status = response.status
  result.json = /^application\/([\w.+-]*\+)?json\b/i.test(response.headers.get('content-type') ?? '')
  if (!probe.expect.includes(response.status)) result.violations.push({ message: `status ${response.status}, expected ${probe.expect.join(' or ')}` })
  const checked = checkAnswer(api, probe.operationId, response.status, response.headers, text)
  result.violations.push(...checked.violations)
  result.notes.push(...checked.notes)
  result.body = checked.body
  result.passed = result.violations.length === 0
  return result
}

/** fetch says only "fetch failed"; the reason a person can act on is in its cause. */
function whyNoAnswer(error: unknown, timeoutMs: number): string {
  if ((error as Error).name === 'TimeoutError') return `no answer within ${timeoutMs} ms`
  const cause = (error as { cause?: { code?: string; message?: string } }).cause
  return `no answer (${cause?.code ?? cause?.message ?? (error as Error).message})`
}
