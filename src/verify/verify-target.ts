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
}

/** Sends each probe to the target and checks status, media type and body against the document. */
export async function verifyTarget(api: Contract, options: VerifyOptions): Promise<ProbeResult[]> {
  const results: ProbeResult[] = []
  for (const probe of readProbes(options.targets)) {
    const result = await run(api, options, probe)
    if (results.length === 0 && result.status === null) throw new NoAnswerError(`${options.target}: ${result.violations[0]?.message}; nothing was checked`)
    results.push(result)
  }
  if (options.write) {
    const subscriber = results[0]?.passed ? (results[0].body as { channels?: { providerId: string; integrationIdentifier?: string; credentials: unknown }[] }) : undefined
    const channel = subscriber?.channels?.[0]
    const same = channel && { providerId: channel.providerId, integrationIdentifier: channel.integrationIdentifier, credentials: channel.credentials }
    for (const probe of writeProbes(options.targets, same)) results.push(probe.skipped === undefined ? await run(api, options, probe) : skippedResult(probe, probe.skipped))
  }
  return results
}

function skippedResult({ name, operationId, method, path }: Probe, skipped: string): ProbeResult {
  return { name, operationId, method, path, status: null, passed: true, violations: [], notes: [], skipped }
}

async function run(api: Contract, options: VerifyOptions, probe: Probe): Promise<ProbeResult> {
  const result: ProbeResult = { name: probe.name, operationId: probe.operationId, method: probe.method, path: probe.path, status: null, passed: false, violations: [], notes: [] }
  let response: Response
  let text: string
  try {
    response = await fetch(new URL(probe.path, options.target), {
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
