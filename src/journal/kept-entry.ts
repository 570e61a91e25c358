import type { JournalCall, JournalEntry, JournalFilter, ProviderState, RecordOptions, StatedEntry } from './journal-port.ts'
import { parseQuery } from '../lib/parse-query.ts'
import { isSecretName, redact } from '../log/redact.ts'
import { ownCopy, STRING_HEADER_BYTES, stringBytes } from '../lib/own-string.ts'

/** Bodies are kept up to this much JSON text, so the journal is bounded in bytes too. */
export const BODY_LIMIT = 16 * 1024

/** A call's provider state is kept up to this much JSON text. */
export const STATE_LIMIT = 4 * BODY_LIMIT

/** An entry's own size in memory beyond its texts (the objects holding them). */
const ENTRY_OVERHEAD_BYTES = 300

/**
 * An entry as kept: one object of one shape, with bodies as JSON text (cut past BODY_LIMIT) rather
 * than object trees, so that a full journal is a few strings per call for the collector, and its
 * size is known. The secret is redacted when the entry is shown, not when it is kept: it is almost
 * never in a body, and looking for it in every keyed call's bodies cost that call more than the
 * rest of its journaling. A body to be cut is redacted as it is kept, while it is still JSON.
 */
export interface Kept {
  readonly id: number
  readonly time: string
  readonly operationId: string
  readonly method: string
  readonly path: string
  readonly url: string
  readonly status: number
  readonly durationMs: number
  readonly violations: JournalEntry['violations']
  readonly note: string | undefined
  /** The request's raw header names and values, one a line: one string rather than an array of them. */
  readonly headers: string | undefined
  /** JSON text, or its first BODY_LIMIT characters (kept as a string) when cut. */
  readonly request: string | undefined
  readonly response: string | undefined
  readonly requestCut: boolean
  readonly responseCut: boolean
  readonly secret: string | undefined
  /**
   * The records the answer depended on, as they were before the call, for the Pact export
   * (docs/behaviour.md §9): JSON, or the records themselves until shown (stateText); '' when past STATE_LIMIT.
   */
  readonly state?: string | ProviderState | undefined
  /** Its size in memory, texts included, each counted as V8 holds it (one or two bytes a character). */
  readonly bytes: number
}

/**
 * The call as kept under `id`; `secret` is never shown in its bodies. `responseText`, the body as
 * already serialized for the wire, spares serializing it again.
 */
export function keptOf(id: number, call: JournalCall, { secret, responseText: serialized }: RecordOptions = {}): Kept {
  const { url, time, operationId, method, path, status, durationMs, violations } = call
  // The ignored content type in it is the client's header, cut: copied, as the bodies are.
  const note = call.note === undefined ? undefined : ownCopy(call.note)
  const headers = call.rawHeaders?.join('\n')
  const requestText = keptText(call.requestBody, undefined, secret)
  const responseText = withoutQuerySecrets(keptText(call.responseBody, serialized, secret), url)
  const request = keptCopy(requestText)
  const response = keptCopy(responseText)
  const requestCut = request !== undefined && request.length !== requestText!.length
  const responseCut = response !== undefined && response.length !== responseText!.length
  // A state past the limit is not kept (cut, it would no longer say what the answer came from): '' marks it.
  const stateLength = call.state?.jsonLength()
  const state = stateLength === undefined || stateLength <= STATE_LIMIT ? call.state : ''
  const textsBytes = textBytes(url) + textBytes(headers) + textBytes(note) + textBytes(request) + textBytes(response)
  // Records kept by reference are counted at their JSON's length, one byte a character.
  const bytes = ENTRY_OVERHEAD_BYTES + textsBytes + (typeof state === 'object' ? STRING_HEADER_BYTES + stateLength! : textBytes(state))
  return { id, time, operationId, method, path, url, status, durationMs, violations, note, headers, request, response, requestCut, responseCut, secret, state, bytes }
}

const textBytes = (text: string | undefined): number => (text === undefined ? 0 : stringBytes(text))

/**
 * The text as kept: its first BODY_LIMIT characters, as a string of its own (a slice, or the
 * envelope written around a page's text, would keep the whole of it while counting only this).
 */
const keptCopy = (text: string | undefined): string | undefined => (text === undefined || text.length <= BODY_LIMIT ? text : ownCopy(text.slice(0, BODY_LIMIT)))

/**
 * `text` without the values of the URL's secret query parameters (`token`, `apiKey`, …), as sent:
 * an error body's `path` repeats the URL, query and all (docs/behaviour.md §6).
 */
function withoutQuerySecrets(text: string | undefined, url: string): string | undefined {
  const query = url.indexOf('?')
  if (text === undefined || query === -1) return text
  const secrets: string[] = []
  for (const pair of url.slice(query + 1).split('&')) {
    const at = pair.indexOf('=')
    const value = at === -1 ? '' : pair.slice(at + 1)
    if (value !== '' && isSecretName(nameOf(pair.slice(0, at)))) secrets.push(value)
  }
  // The longest first: a value that holds another is hidden whole.
  let hidden = text
  for (const value of secrets.sort((a, b) => b.length - a.length)) hidden = hidden.split(value).join('[redacted]')
  return hidden
}

const nameOf = (raw: string): string => {
  try {
    return decodeURIComponent(raw)
  } catch {
    return raw
  }
}

/** The entries `filter` asks for, oldest first, as the admin API shows them. */
export function selected(entries: readonly Kept[], filter: JournalFilter, shownAs: (kept: Kept) => JournalEntry = entryOf): JournalEntry[] {
  const since = filter.since === undefined ? undefined : Date.parse(filter.since)
  const matching = entries.filter(
    (kept) =>
      (filter.id === undefined || kept.id === filter.id) &&
      (filter.operationId === undefined || kept.operationId === filter.operationId) &&
      (filter.method === undefined || kept.method === filter.method) &&
      (filter.path === undefined || kept.path === filter.path) &&
      (filter.status === undefined || kept.status === filter.status) &&
      (since === undefined || Date.parse(kept.time) >= since),
  )
  return (filter.limit === undefined ? matching : matching.slice(-filter.limit)).map(shownAs)
}

/** The entry as the admin API shows it, in the document's order of fields. */
export function entryOf(kept: Kept): JournalEntry {
  const { id, time, operationId, method, path, url, status, durationMs, violations, note, headers, request, response, requestCut, responseCut, secret } = kept
  const entry: JournalEntry = { id, time, operationId, method, path, query: queryOf(url), status, durationMs }
  if (headers !== undefined) entry.headers = headersOf(headers)
  if (request !== undefined) entry.requestBody = valueOf(request, requestCut, secret)
  entry.responseBody = response === undefined ? undefined : valueOf(response, responseCut, secret)
  if (violations) entry.violations = violations
  if (note !== undefined) entry.note = note
  if (requestCut || responseCut) entry.truncated = true
  return entry
}

/** The entry as the admin API shows it, with the records it depended on (the Pact export's); a state not kept marks it truncated. */
export function statedEntryOf(kept: Kept): StatedEntry {
  const entry: StatedEntry = entryOf(kept)
  if (kept.state === '') entry.truncated = true
  else if (kept.state !== undefined) entry.state = shown(stateText(kept.state), kept.secret)
  return entry
}

/** A kept state as JSON. */
export const stateText = (state: string | ProviderState): string => (typeof state === 'string' ? state : state.json())

/**
 * The request's headers by lower-cased name (a repeated one's values joined by `, `), secrets
 * (`Authorization`, the idempotency key, cookies, the admin token) redacted. Without a prototype:
 * the names are the client's.
 */
export function headersOf(raw: string): Record<string, string> {
  const lines = raw.split('\n')
  const headers: Record<string, string> = Object.create(null) as Record<string, string>
  for (let i = 0; i + 1 < lines.length; i += 2) {
    const name = lines[i]!.toLowerCase()
    headers[name] = headers[name] === undefined ? lines[i + 1]! : `${headers[name]}, ${lines[i + 1]}`
  }
  return redact(headers)
}

/** The request's query, secrets (`token`, `apiKey`, …) redacted. */
const queryOf = (url: string) => redact(parseQuery(url))

const valueOf = (text: string, cut: boolean, secret: string | undefined): unknown => (cut ? text : JSON.parse(shown(text, secret)))

/**
 * `JSON.stringify(entryOf(kept))`, without parsing the bodies only to serialize them again: a
 * body's kept text is already its JSON (a cut one is a string, so it is quoted). Without bodies
 * (`bodies` false), the headers, bodies and `truncated` are left out.
 */
export function entryJson(kept: Kept, bodies: boolean): string {
  const { id, time, operationId, method, path, url, status, durationMs, violations, note, headers, request, response, requestCut, responseCut, secret } = kept
  // Written out rather than JSON.stringify of an object made for it: a streamed call's largest cost,
  // four times less so. The numbers are finite and the time is toISOString's, so neither needs escaping.
  const query = url.includes('?') ? JSON.stringify(queryOf(url)) : '{}'
  let json = `{"id":${id},"time":"${time}","operationId":${JSON.stringify(operationId)},"method":${JSON.stringify(method)},"path":${JSON.stringify(path)},"query":${query},"status":${status},"durationMs":${durationMs}`
  if (bodies && headers !== undefined) json += `,"headers":${JSON.stringify(headersOf(headers))}`
  if (bodies && request !== undefined) json += `,"requestBody":${bodyJson(request, requestCut, secret)}`
  if (bodies && response !== undefined) json += `,"responseBody":${bodyJson(response, responseCut, secret)}`
  if (violations) json += `,"violations":${JSON.stringify(violations)}`
  if (note !== undefined) json += `,"note":${JSON.stringify(note)}`
  if (bodies && (requestCut || responseCut)) json += ',"truncated":true'
  return `${json}}`
}

const bodyJson = (text: string, cut: boolean, secret: string | undefined): string => (cut ? JSON.stringify(text) : shown(text, secret))

/** A body as the journal keeps it: serialized once; redacted now only if it is to be cut (cut by the caller). */
function keptText(body: unknown, serialized: string | undefined, secret: string | undefined): string | undefined {
  if (body === undefined) return undefined
  const text = serialized ?? JSON.stringify(body)
  return text.length > BODY_LIMIT && secret && text.includes(secret) ? redacted(body, secret) : text
}

/** A kept body's JSON as shown: with the secret redacted, if it is there. */
export function shown(text: string, secret: string | undefined): string {
  return secret && text.includes(secret) ? redacted(JSON.parse(text), secret) : text
}

/** The body as JSON, each occurrence of the secret in its strings redacted. */
function redacted(body: unknown, secret: string): string {
  return JSON.stringify(body, (_key, value: unknown) => (typeof value === 'string' ? value.split(secret).join('[redacted]') : value))
}
