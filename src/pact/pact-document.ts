import type { StatedEntry } from '../journal/journal-port.ts'
import { isSecretName } from '../log/redact.ts'
import { bodyRules } from './matching-rules.ts'
import { stateName, type StateRecords } from './state-name.ts'

/** The seed a tenant starts from, as a provider state's `params.seed` names it. */
export interface SeedParams {
  seed: number
  demo?: boolean | undefined
  subscribers: number
  channelConnections: number
  messages?: number | undefined
}

export interface PactRequest {
  consumer: string
  provider: string
  /** Every call, not only those answered 2xx. */
  allStatuses: boolean
}

export interface PactSource {
  /** The tenant's journal, oldest first, each entry with its state. */
  entries: readonly StatedEntry[]
  seed: SeedParams
  /** The tenant's own ids, which the verifier's key may not share. */
  tenantIds: { organizationId: string; environmentId: string }
  /** Under a frozen clock every answer is the same for the same calls: no rules for times and ids. */
  frozen: boolean
  /** The main path parameter of an operation's call, for its description. */
  mainParameter(operationId: string, path: string): string | undefined
}

/** The response's media type, as the mock sends every JSON answer. */
const JSON_TYPE = 'application/json; charset=utf-8'

/** The request headers a provider needs to answer as it did (docs/behaviour.md §9); never a secret. */
const KEPT_HEADERS: Readonly<Record<string, string>> = { 'content-type': 'Content-Type', prefer: 'Prefer' }

/**
 * The journal as a Pact V4 document (docs/behaviour.md §9): one `Synchronous/HTTP` interaction per
 * call, in call order. A call whose bodies the journal cut is left out: its pact could not say
 * what was answered.
 */
export function pactOf(request: PactRequest, source: PactSource) {
  const calls = source.entries.filter((entry) => !entry.truncated && (request.allStatuses || (entry.status >= 200 && entry.status < 300)))
  return {
    consumer: { name: request.consumer },
    provider: { name: request.provider },
    interactions: calls.map((entry) => interactionOf(entry, source)),
    metadata: { pactSpecification: { version: '4.0' } },
  }
}

function interactionOf(entry: StatedEntry, source: PactSource) {
  const records = (entry.state === undefined ? {} : JSON.parse(entry.state)) as StateRecords
  const parameter = source.mainParameter(entry.operationId, entry.path)
  const rules = bodyRules(entry.responseBody, { ...source, records })
  return {
    type: 'Synchronous/HTTP',
    description: [`#${entry.id}`, entry.operationId, parameter].filter(Boolean).join(' '),
    providerStates: [{ name: stateName(records), params: { seed: source.seed, now: entry.time, records } }],
    request: requestOf(entry),
    response: {
      status: entry.status,
      headers: { 'Content-Type': [JSON_TYPE] },
      ...(entry.responseBody === undefined ? {} : { body: jsonBody(entry.responseBody) }),
      ...(Object.keys(rules).length === 0 ? {} : { matchingRules: { body: rules } }),
    },
    pending: false,
  }
}

function requestOf(entry: StatedEntry) {
  const query = queryOf(entry.query)
  const headers: Record<string, string[]> = {}
  for (const [name, value] of Object.entries(entry.headers ?? {})) {
    const kept = KEPT_HEADERS[name]
    if (kept !== undefined) headers[kept] = [value]
  }
  // The body as the mock read it, sent as JSON (a form's fields answer the same as JSON: docs/behaviour.md §1.3).
  if (entry.requestBody !== undefined && !/json/i.test(headers['Content-Type']?.[0] ?? '')) headers['Content-Type'] = ['application/json']
  return {
    method: entry.method,
    path: entry.path,
    ...(Object.keys(query).length === 0 ? {} : { query }),
    ...(Object.keys(headers).length === 0 ? {} : { headers }),
    ...(entry.requestBody === undefined ? {} : { body: jsonBody(entry.requestBody) }),
  }
}

const jsonBody = (content: unknown) => ({ content, contentType: 'application/json', encoded: false })

/**
 * The query as Pact keeps it, each name with its values in order, secret names left out
 * (docs/behaviour.md §6). Read from the journal's parsed query: a name given several times is an array there.
 */
function queryOf(query: Record<string, unknown>): Record<string, string[]> {
  const kept: Record<string, string[]> = {}
  for (const [name, value] of Object.entries(query)) {
    if (isSecretName(name)) continue
    const values = (Array.isArray(value) ? value : [value]).filter((item): item is string => typeof item === 'string')
    if (values.length > 0) kept[name] = values
  }
  return kept
}
