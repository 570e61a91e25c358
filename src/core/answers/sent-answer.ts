import { jsonOutSteps } from '../../lib/json/json-out-steps.ts'
import { valuesInSlices } from '../../lib/slices.ts'

/** Headers in one list, name, value, name, value: node's `writeHead` takes it as it is (docs/decisions.md, 2026-11-24). */
export type HeaderList = (string | number)[]

/**
 * An answer as it leaves the core: status, every header but the body's own, and the JSON text;
 * or, for a large body, its text in chunks, each made when the door asks for the next (its
 * length is not known before the last). `note` says how the call's body was read when that
 * explains its answer (a form, an ignored type): for the log line, never the body.
 */
export type SentAnswer = { status: number; head: HeaderList; note?: string } & ({ text: string; chunks?: undefined } | { text?: undefined; chunks: AsyncIterable<string> })

/** What a call comes to: an answer, or (a fault's `drop`) no answer at all and a closed connection. */
export type CallOutcome = SentAnswer | 'drop'

export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8'

export function appendHeaders(head: HeaderList, headers: Readonly<Record<string, string>> | undefined): void {
  for (const name in headers) head.push(name, headers[name]!)
}

/** A large body's JSON in chunks made as the door takes them; one that fits in a chunk is its text. */
export function slicedAnswer(status: number, head: HeaderList, body: unknown): SentAnswer {
  const chunks = jsonOutSteps(body)
  const first = chunks.next()
  const second = chunks.next()
  if (first.done || second.done) return { status, head, text: first.done ? '' : first.value }
  return { status, head, chunks: valuesInSlices(chunksFrom(first.value, second.value, chunks)) }
}

function* chunksFrom(first: string, second: string, rest: Iterable<string>): Generator<string, void, void> {
  yield first
  yield second
  yield* rest
}
