/** Headers in one list, name, value, name, value: node's `writeHead` takes it as it is (docs/decisions.md, 2026-11-24). */
export type HeaderList = (string | number)[]

/** An answer as it leaves the core: status, every header but the body's own, and the JSON text. */
export interface SentAnswer {
  status: number
  head: HeaderList
  text: string
  /** How the call's body was read when that explains its answer (a form, an ignored type): for the log line, never the body. */
  note?: string
}

/** What a call comes to: an answer, or (a fault's `drop`) no answer at all and a closed connection. */
export type CallOutcome = SentAnswer | 'drop'

export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8'

export function appendHeaders(head: HeaderList, headers: Readonly<Record<string, string>> | undefined): void {
  for (const name in headers) head.push(name, headers[name]!)
}
