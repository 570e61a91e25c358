import type { ErrorObject } from 'ajv/dist/2020.js'
import type { Contract } from '../contract/load-contract.ts'
import { readProbes, writeProbes, type Probe, type ProbeTargets } from './probes.ts'

export interface VerifyOptions {
  /** Base URL of the server under test: the live service, a staging copy, or a mock. */
  target: string
  apiKey: string
  /** Also send the probes that write (only to the ids given). */
  write: boolean
  targets: ProbeTargets
}

export interface Violation {
  message: string
  instancePath?: string
  schemaPath?: string
  value?: unknown
}

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
  body?: unknown
}

/** Sends each probe to the target and checks status, media type and body against the document. */
export async function verifyTarget(api: Contract, options: VerifyOptions): Promise<ProbeResult[]> {
  const results: ProbeResult[] = []
  for (const probe of readProbes(options.targets)) results.push(await run(api, options, probe))
  if (options.write) {
    const subscriber = results[0]?.passed ? (results[0].body as { channels?: { providerId: string; integrationIdentifier?: string; credentials: unknown }[] }) : undefined
    const channel = subscriber?.channels?.[0]
    const same = channel && { providerId: channel.providerId, integrationIdentifier: channel.integrationIdentifier, credentials: channel.credentials }
    for (const probe of writeProbes(options.targets, same)) results.push(await run(api, options, probe))
  }
  return results
}

async function run(api: Contract, options: VerifyOptions, probe: Probe): Promise<ProbeResult> {
  const result: ProbeResult = { name: probe.name, operationId: probe.operationId, method: probe.method, path: probe.path, status: null, passed: false, violations: [], notes: [] }
  let response: Response
  try {
    response = await fetch(new URL(probe.path, options.target), {
      method: probe.method,
      headers: { Authorization: `ApiKey ${options.apiKey}`, Accept: 'application/json', ...(probe.body === undefined ? {} : { 'Content-Type': 'application/json' }) },
      body: probe.body === undefined ? undefined : JSON.stringify(probe.body),
    })
  } catch (error) {
    result.violations.push({ message: `no answer: ${(error as Error).message}` })
    return result
  }
  result.status = response.status
  const text = await response.text()
  check(api, probe, response, text, result)
  result.passed = result.violations.length === 0
  return result
}

function check(api: Contract, probe: Probe, response: Response, text: string, result: ProbeResult): void {
  if (!probe.expect.includes(response.status)) result.violations.push({ message: `status ${response.status}, expected ${probe.expect.join(' or ')}` })
  if (!/^application\/json\b/.test(response.headers.get('content-type') ?? '')) {
    result.violations.push({ message: `Content-Type is "${response.headers.get('content-type')}", not application/json` })
  }
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch {
    result.violations.push({ message: 'the body is not JSON', value: text.slice(0, 200) })
    return
  }
  body = unwrapped(probe, response.status, body, result)
  result.body = body
  const validate = api.operations.get(probe.operationId)?.responseValidators.get(response.status)
  if (!validate) return void result.violations.push({ message: `status ${response.status} is not documented for ${probe.operationId}` })
  if (validate(body)) return
  for (const error of validate.errors ?? []) {
    if (error.keyword === 'additionalProperties' || error.keyword === 'unevaluatedProperties') result.notes.push(extraFieldNote(error))
    else result.violations.push({ message: error.message ?? error.keyword, instancePath: error.instancePath, schemaPath: error.schemaPath, value: valueAt(body, error.instancePath) })
  }
}

/** The live service wraps results as `{"data": …}` (the list page excepted); both forms pass. */
function unwrapped(probe: Probe, status: number, body: unknown, result: ProbeResult): unknown {
  const wrapped = status < 300 && probe.operationId !== 'listChannelConnections' && body !== null && typeof body === 'object' && !Array.isArray(body) && Object.keys(body).length === 1 && 'data' in body
  if (!wrapped) return body
  result.notes.push('result enveloped as {"data": …}')
  return (body as { data: unknown }).data
}

function extraFieldNote(error: ErrorObject): string {
  const field = (error.params as { additionalProperty?: string; unevaluatedProperty?: string }).additionalProperty ?? (error.params as { unevaluatedProperty?: string }).unevaluatedProperty
  return `extra field "${field}" at ${error.instancePath || '/'}`
}

function valueAt(body: unknown, pointer: string): unknown {
  let current = body
  for (const segment of pointer.split('/').slice(1)) {
    if (current === null || typeof current !== 'object') return undefined
    current = (current as Record<string, unknown>)[segment.replace(/~1/g, '/').replace(/~0/g, '~')]
  }
  return current
}
