import type { Expectation, JournalEntry } from './document-types.ts'

/** Calls listed in the message, the most recent; `seen` holds all the server sent. */
const LISTED = 5
/** A listed body's JSON is cut past this many characters. */
const BODY_SHOWN = 200

/** What `verify` found instead of the expected calls. */
export interface VerificationFailure {
  expectation: Expectation
  /** Calls that matched the expectation's operation and body. */
  matched: number
  /** The most recent calls of the operation, matching or not (at most 20). */
  seen: JournalEntry[]
}

/** A tenant's `verify` found other calls than expected; the message names the operation, what was expected and what was seen. */
export class VerificationError extends Error {
  readonly expectation: Expectation
  readonly matched: number
  readonly seen: JournalEntry[]

  constructor(summary: string, failure: VerificationFailure) {
    super(`${summary}\n${seenLines(failure)}`)
    this.name = 'VerificationError'
    this.expectation = failure.expectation
    this.matched = failure.matched
    this.seen = failure.seen
  }
}

function seenLines({ expectation, seen }: VerificationFailure): string {
  if (seen.length === 0) return `Seen: no call of ${expectation.operationId}.`
  const listed = seen.slice(-LISTED)
  const header = listed.length < seen.length ? `Seen (the last ${listed.length} of ${seen.length}):` : 'Seen:'
  return [header, ...listed.map((call) => `  ${call.method} ${call.path} → ${call.status}${bodyOf(call.requestBody)}`)].join('\n')
}

function bodyOf(body: unknown): string {
  if (body === undefined) return ''
  const text = typeof body === 'string' ? body : JSON.stringify(body)
  return ` ${text.length > BODY_SHOWN ? `${text.slice(0, BODY_SHOWN)}…` : text}`
}
